import { createContext, Script } from 'node:vm';
import { DateTime } from 'luxon';
import { COLLECTION_PRE_REQUEST, renderPostmanCollection } from '../../local/postman-collection';
import { renderOpenApi } from '../../local/write-openapi';

/**
 * The collection as a smoke test (local/postman-collection.ts): one request per operation of the document, optional
 * parameters off, nothing of the run fixed that the run must make (ids, ETags, job ids, dates), and assertions on every
 * request. That it runs, with the demo data, is test/heavy/smoke-collection.test.ts.
 */
interface Item {
  name: string;
  request: {
    method: string;
    url: { raw: string; query: { key: string; value: string; disabled?: boolean }[] };
    header: { key: string; value: string; disabled?: boolean }[];
    body?: { raw: string };
    description: string;
  };
  event: { listen: string; script: { exec: string[] } }[];
}

const document = renderOpenApi();
const doc = JSON.parse(document) as {
  paths: Record<string, Record<string, { operationId?: string; deprecated?: boolean; parameters?: unknown[] }>>;
};
const items = (JSON.parse(renderPostmanCollection(document)) as { item: Item[] }).item;
const operationOf = (item: Item) => /Operation `(\w+)`/.exec(item.request.description)?.[1];

describe('the Postman collection', () => {
  it('has one request per operation the document does not mark deprecated, each named apart', () => {
    const operations = Object.values(doc.paths)
      .flatMap((methods) => Object.values(methods))
      .filter((op) => op.operationId && !op.deprecated)
      .map((op) => op.operationId);
    expect(items.map(operationOf).sort()).toEqual(operations.sort());
    expect(new Set(items.map((i) => i.name)).size).toBe(items.length);
  });

  it('starts with the farm lookup and registers before it exports, and exports before it deletes', () => {
    const at = (operation: string) => items.findIndex((i) => operationOf(i) === operation);
    expect(at('farmLookup')).toBe(0);
    expect(at('registerPhytosanitary')).toBeLessThan(at('exportCue'));
    expect(at('exportCue')).toBeLessThan(at('jobStatus'));
    expect(at('jobResult')).toBeLessThan(at('deletePhytosanitary'));
    expect(at('deletePhytosanitary')).toBeLessThan(at('registerPhytosanitaryBatch'));
  });

  it('has its optional parameters off, but the idempotency key and If-Match that make a write safe', () => {
    const on = items.flatMap((i) =>
      [...i.request.url.query, ...i.request.header].filter((p) => !p.disabled).map((p) => `${operationOf(i)} ${p.key}`),
    );
    for (const line of on) {
      const [operation, name] = line.split(' ');
      const params = Object.values(doc.paths)
        .flatMap((methods) => Object.values(methods))
        .find((op) => op.operationId === operation)!.parameters as { name: string; required?: boolean }[] | undefined;
      const param = params?.find((p) => p.name === name);
      if (name === 'Content-Type') continue;
      expect({ line, on: param?.required === true || ['Idempotency-Key', 'If-Match'].includes(name) }).toEqual({
        line,
        on: true,
      });
    }
  });

  it('fixes no id, ETag, job or date the run makes: each is a variable', () => {
    for (const item of items) {
      const text = JSON.stringify(item.request);
      expect({ item: item.name, fixed: text.match(/urn:ngsi-ld:\w+:\d+|"\\"\d+\\""|\d{2}-\d{2}-20\d{2}/g) }).toEqual({
        item: item.name,
        fixed: null,
      });
    }
    const exportCue = items.find((i) => operationOf(i) === 'exportCue')!;
    expect(exportCue.request.body?.raw).toBe('{{exportBody}}');
  });

  it('asserts on every request', () => {
    for (const item of items) {
      const test = item.event.find((e) => e.listen === 'test')?.script.exec.join('\n') ?? '';
      expect({ item: item.name, asserts: /pm\.test\(/.test(test) }).toEqual({ item: item.name, asserts: true });
    }
  });
});

describe("the collection's dates, computed by its pre-request script without Intl (Postman has none)", () => {
  /** What the script sets at the instant `ms` (Date.now), run as the sandbox runs it: in a context of its own. */
  // In a block of its own each time, as the sandbox wraps a script: its constants are declared anew.
  const script = new Script(`{\n${COLLECTION_PRE_REQUEST.join('\n')}\n}`);
  let clock = 0;
  let set: Record<string, string> = {};
  const context = createContext({
    pm: {
      request: { headers: { upsert: () => undefined } },
      variables: { get: () => '', set: (k: string, v: string) => (set[k] = v) },
    },
    Date: class extends Date {
      static override now = () => clock;
    },
    String,
  });
  function runAt(ms: number): Record<string, string> {
    clock = ms;
    set = {};
    script.runInContext(context);
    return set;
  }

  it('is Madrid time a minute back, across summer time and the turn of the year', () => {
    const instants = [
      '2026-03-29T00:59:00Z', // summer time starts at 01:00 UTC
      '2026-03-29T01:01:00Z',
      '2026-03-29T01:02:00Z',
      '2026-10-25T00:59:00Z',
      '2026-10-25T01:01:00Z', // ends at 01:00 UTC
      '2026-10-25T01:02:00Z',
      '2026-12-31T23:00:30Z', // Madrid's new year, less the minute back
      '2026-12-31T23:01:30Z',
      '2028-02-29T12:00:00Z',
      '2031-03-30T01:30:00Z',
      '2031-10-26T00:30:00Z',
    ].map((iso) => DateTime.fromISO(iso).toMillis());
    // And every 5 hours through two years.
    for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2028, 0, 1); ms += 5 * 3_600_000) instants.push(ms);
    for (const ms of instants) {
      const madrid = DateTime.fromMillis(ms - 60_000, { zone: 'Europe/Madrid' });
      expect({ at: new Date(ms).toISOString(), ...runAt(ms) }).toEqual({
        at: new Date(ms).toISOString(),
        today: madrid.toFormat('dd-MM-yyyy'),
        now: madrid.toFormat('dd-MM-yyyy HH:mm:ss'),
        campaign: String(madrid.year),
      });
    }
  });
});
