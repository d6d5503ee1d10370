import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { PhytoRequest } from '../../shared/phyto/wire';
import { parseDateTime, ZONE } from '../../shared/domain/dates';
import { exportFarm, ExportFarm, gatewayCalls, SIEX_FIELDS } from '../helpers/export-stack';
import { call, get, Keys, Reply } from '../helpers/http';
import { body, daysAgo, list, P, register, REGISTER_PATH } from '../helpers/phyto-stack';
import { checkProblemShape } from '../helpers/spec-shapes';

/**
 * Issue 26 over HTTP through the local runner: one record read back as registration and amendment answer it, with
 * its ETag; every record answer saying whether an export would send it and what SIEX still needs (exactly what the
 * export then settles as MISSING_DATA); the list's filters on export state, exportability, location and days with
 * paging; when each crop location may be harvested; and a problem+json 404 for any route the gateway does not serve.
 */
const gw = gatewayCalls();
let farm: ExportFarm;
let stranger: ExportFarm;

const MITE = { type: 'TypeInfection', kind: 'plaga', id: '18', name: 'Araña amarilla' } as const;
const PERCENT = { type: 'Measure', name: 'Porcentaje', symbol: '%', code: 14 } as const;
const NO_EFFICACY = { ...SIEX_FIELDS, efficacy: undefined };

const recordPath = (f: ExportFarm, id: string, suffix = '') =>
  `${REGISTER_PATH}${encodeURIComponent(id)}${suffix}?agrifarmId=${encodeURIComponent(f.agrifarmId)}`;
const read = (f: ExportFarm, id: string, keys: Keys = f.keys) => get(recordPath(f, id), keys);

async function registered(f: ExportFarm, b: PhytoRequest, query = ''): Promise<Reply> {
  const res = await register(f.keys, f.agrifarmId, b, {}, query);
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
  return res;
}

const ids = (res: Reply): string[] => res.json.map((r: { id: string }) => r.id);

beforeAll(async () => {
  [farm, stranger] = await Promise.all([exportFarm('reads-owner', 6), exportFarm('reads-stranger')]);
});

describe('GET one record', () => {
  it('answers the record in an array, as registration and PATCH do, with its ETag', async () => {
    const created = await registered(farm, body({ idcp: [farm.vine[0]], ...SIEX_FIELDS }));
    const id = created.json[0].id as string;
    const first = await read(farm, id);
    expect([first.status, first.headers.get('etag'), first.text]).toEqual([200, '"1"', created.text]);
    expect(first.headers.get('content-type')).toMatch(/^application\/json/);

    const amended = await call('PATCH', recordPath(farm, id), {
      keys: farm.keys,
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: JSON.stringify({ detail: 'revisado' }),
    });
    expect(amended.status).toBe(200);
    const second = await read(farm, id);
    expect([second.status, second.headers.get('etag'), second.text]).toEqual([200, '"2"', amended.text]);
  });

  it("answers another client's record, a deleted one and an unknown one with the same 404 as every record route", async () => {
    const theirs = (await registered(farm, body({ idcp: [farm.vine[1]] }))).json[0].id as string;
    const gone = (await registered(farm, body({ idcp: [farm.vine[1]], dateApplication: daysAgo(2) }))).json[0]
      .id as string;
    expect((await call('DELETE', recordPath(farm, gone), { keys: farm.keys })).status).toBe(204);

    const foreign = await read(stranger, theirs);
    expect([foreign.status, foreign.json.errors]).toEqual([
      404,
      [{ code: 'RECORD_NOT_FOUND', path: 'path.id', message: expect.any(String) }],
    ]);
    checkProblemShape(foreign.json, 404);
    // Byte for byte what the record's other routes answer the same caller.
    expect(foreign.text).toBe((await get(recordPath(stranger, theirs, '/history'), stranger.keys)).text);
    const unknown = 'urn:ngsi-ld:AgriPhytosanitary:9999999999';
    const numberOf = (urn: string) => urn.split(':').pop()!;
    expect((await read(farm, unknown)).text).toBe(foreign.text.replace(numberOf(theirs), numberOf(unknown)));
    expect((await read(farm, gone)).text).toBe(foreign.text.replace(numberOf(theirs), numberOf(gone)));
    // The owner's farm campaign under the stranger's keys is not the stranger's: the farm is unknown to it.
    expect((await read(farm, theirs, stranger.keys)).json.errors[0].code).toBe('AGRIFARM_NOT_FOUND');
  });
});

describe('exportable and exportBlockers', () => {
  it('says on registration, list and read what an export would refuse, in the words the export job then uses', async () => {
    const ready = await registered(farm, body({ idcp: [farm.vine[2]], ...SIEX_FIELDS }));
    expect([ready.json[0].exportable, ready.json[0].exportBlockers]).toEqual([true, []]);

    const lacking = await registered(farm, body({ idcp: [farm.vine[2]], ...NO_EFFICACY, tj: undefined }));
    const blockers = lacking.json[0].exportBlockers as { code: string; message: string }[];
    expect(lacking.json[0].exportable).toBe(false);
    expect(blockers).toEqual([
      { code: 'MISSING_DATA', message: expect.stringContaining('tj') },
      { code: 'MISSING_DATA', message: expect.stringContaining('efficacy') },
    ]);
    const id = lacking.json[0].id as string;
    expect((await read(farm, id)).json[0].exportBlockers).toEqual(blockers);
    const listed = (await list(farm.keys, farm.agrifarmId)).json.find((r: { id: string }) => r.id === id);
    expect([listed.exportable, listed.exportBlockers]).toEqual([false, blockers]);

    // An export of it alone is refused at once, in the same words, and makes no job (issue 38 item 9).
    const refused = await gw.exportCue(farm, [id]);
    expect(refused.status).toBe(422);
    expect(refused.json.errors).toEqual([
      {
        code: 'RECORD_NOT_EXPORTABLE',
        path: 'body[0].id',
        message: `${id} lacks what SIEX requires: ${blockers.map((b) => b.message).join('; ')}`,
      },
    ]);
    // Beside a record that can go, it is named in the 202 with the very blockers its reads show.
    const beside = await registered(farm, body({ idcp: [farm.vine[2]], ...SIEX_FIELDS }));
    const started = await gw.exportCue(farm, [beside.json[0].id, id]);
    expect([started.status, started.json.blocked]).toEqual([202, [{ id, exportBlockers: blockers }]]);
    await gw.settled(farm.keys, started.json.id);
    expect((await gw.result(farm.keys, started.json.id)).json.error).toEqual([]);

    // Completing the record makes it exportable at once.
    const completed = await call('PATCH', recordPath(farm, id), {
      keys: farm.keys,
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: JSON.stringify({ tj: SIEX_FIELDS.tj, efficacy: SIEX_FIELDS.efficacy }),
    });
    expect([completed.status, completed.json[0].exportable, completed.json[0].exportBlockers]).toEqual([200, true, []]);
  });
});

describe('list filters', () => {
  let f: ExportFarm;
  const urns: Record<string, string> = {};

  beforeAll(async () => {
    f = await exportFarm('reads-filters', 4);
    // Newest first: d1 (vine 0, exportable), d2 (vine 1, not), d3 (vine 0, sent elsewhere), d4 (olive, not).
    urns.d1 = ids(await registered(f, body({ idcp: [f.vine[0]], ...SIEX_FIELDS, dateApplication: daysAgo(1) })))[0];
    urns.d2 = ids(await registered(f, body({ idcp: [f.vine[1]], ...NO_EFFICACY, dateApplication: daysAgo(2) })))[0];
    urns.d3 = ids(
      await registered(f, body({ idcp: [f.vine[0]], ...SIEX_FIELDS, dateApplication: daysAgo(3) }), '&exported=1'),
    )[0];
    urns.d4 = ids(await registered(f, body({ idcp: [f.olive], ...NO_EFFICACY, dateApplication: daysAgo(4) })))[0];
  });

  const day = (n: number) => daysAgo(n).slice(0, 10);
  const listed = async (query: Record<string, string>) => {
    const res = await list(f.keys, f.agrifarmId, query);
    if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
    return { ids: ids(res), total: res.headers.get('x-total-count'), pages: res.headers.get('x-total-pages') };
  };

  it.each([
    [{ exported: '1' }, ['d3']],
    [{ exported: '0' }, ['d1', 'd2', 'd4']],
    [{ exportable: '1' }, ['d1', 'd3']],
    [{ exportable: '0' }, ['d2', 'd4']],
    [{ idcp: 'VINE0' }, ['d1', 'd3']],
    [{ idcp: 'OLIVE' }, ['d4']],
    [{ exported: '0', exportable: '0' }, ['d2', 'd4']],
    [{ exported: '0', idcp: 'VINE0' }, ['d1']],
    [{ dateFrom: 'D3', dateTo: 'D2' }, ['d2', 'd3']],
    [{ dateFrom: 'D3', exportable: '0' }, ['d2']],
  ])('%p lists %p, newest first', async (query, expected) => {
    const q = Object.fromEntries(
      Object.entries(query).map(([k, v]) => [
        k,
        v === 'VINE0' ? f.vine[0] : v === 'OLIVE' ? f.olive : /^D\d$/.test(v) ? day(Number(v[1])) : v,
      ]),
    );
    const got = await listed(q);
    expect(got.ids).toEqual(expected.map((k) => urns[k]));
    expect(got.total).toBe(String(expected.length));
  });

  it('pages a filtered list, counting every match', async () => {
    const pages = await Promise.all(['1', '2'].map((page) => listed({ exported: '0', page, page_size: '2' })));
    expect(pages.map((p) => [p.ids, p.total, p.pages])).toEqual([
      [[urns.d1, urns.d2], '3', '2'],
      [[urns.d4], '3', '2'],
    ]);
  });

  it('refuses a filter value it does not know, naming it', async () => {
    const res = await list(f.keys, f.agrifarmId, { exported: 'yes', exportable: '2', idcp: '0' });
    expect([res.status, res.json.errors.map((e: { path: string }) => e.path).sort()]).toEqual([
      400,
      ['query.exportable', 'query.exported', 'query.idcp'],
    ]);
  });
});

describe('safe harvest', () => {
  let f: ExportFarm;
  let mixed: string;

  const harvest = (query: Record<string, string>, keys: Keys = f.keys) =>
    get(`/v1/siex/safeharvest?${new URLSearchParams({ agrifarmId: f.agrifarmId, ...query }).toString()}`, keys);
  const madridDay = (text: string) => parseDateTime(text)!.setZone(ZONE).startOf('day');
  const ddmmyyyy = (d: DateTime) => d.toFormat('dd-MM-yyyy');

  beforeAll(async () => {
    f = await exportFarm('reads-harvest', 2);
    // Vine 0: the copper product (no interval stated) mixed with the acaricide (21 days) two days ago, and copper
    // alone yesterday: the mix sets the day. Olive: MICROTHIOL, whose olive use says NO PROCEDE.
    const mix = body({
      idcp: [f.vine[0]],
      dateApplication: daysAgo(2),
      mix: [
        {
          subtype: { type: 'TypePhytosanitary', name: 'ACARICIDA', code: P.acaricide },
          dose: 0.08,
          measure: PERCENT,
          infection: MITE,
        },
      ],
    });
    mixed = ids(await registered(f, mix))[0];
    await registered(f, body({ idcp: [f.vine[0]], dateApplication: daysAgo(1) }));
    await registered(
      f,
      body({
        idcp: [f.olive],
        subtype: { type: 'TypePhytosanitary', name: 'MICROTHIOL', code: P.microthiol },
        dose: 0.5,
        infection: { type: 'TypeInfection', kind: 'enfermedad', id: '42', name: 'Negrilla' },
      }),
    );
  });

  it("names for each crop location the last day a treatment's interval ends, and whether the day is on or after it", async () => {
    const earliest = madridDay(daysAgo(2)).plus({ days: 21 });
    const onTheDay = await harvest({ date: ddmmyyyy(earliest) });
    expect(onTheDay.status).toBe(200);
    const byIdcp = new Map(onTheDay.json.map((e: { idcp: number }) => [String(e.idcp), e]));
    expect([...byIdcp.keys()]).toEqual([...f.vine, f.olive, expect.any(String)]);
    expect(byIdcp.get(f.vine[0])).toEqual({
      idcp: Number(f.vine[0]),
      crop: { typecrop: { id: '102', name: 'VIÑA' }, code: 1001, name: 'TEMPRANILLO' },
      earliestHarvest: ddmmyyyy(earliest),
      safeOn: true,
      setBy: {
        record: mixed,
        product: { code: P.acaricide, name: 'ACARICIDA DE PRUEBA' },
        applied: ddmmyyyy(madridDay(daysAgo(2))),
        seclimit: '21',
      },
    });
    for (const free of [f.vine[1], f.olive])
      expect(byIdcp.get(free)).toMatchObject({ earliestHarvest: null, safeOn: true, setBy: null });

    const dayBefore = await harvest({ date: ddmmyyyy(earliest.minus({ days: 1 })) });
    expect(dayBefore.json.find((e: { idcp: number }) => String(e.idcp) === f.vine[0])).toMatchObject({
      earliestHarvest: ddmmyyyy(earliest),
      safeOn: false,
    });
  });

  it('takes today in Madrid without a date', async () => {
    // The interval ends 19 days from now: whatever the hour, today is before it.
    const today = await harvest({});
    expect(today.json.find((e: { idcp: number }) => String(e.idcp) === f.vine[0]).safeOn).toBe(false);
  });

  it('refuses a day that is not one, and a farm the caller may not see', async () => {
    const bad = await harvest({ date: '31-02-2026' });
    expect([bad.status, bad.json.errors.map((e: { code: string }) => e.code)]).toEqual([400, ['INVALID_DATE']]);
    checkProblemShape(bad.json, 400);
    const foreign = await harvest({}, stranger.keys);
    expect([foreign.status, foreign.json.errors[0].code]).toEqual([404, 'AGRIFARM_NOT_FOUND']);
  });
});

describe('unknown routes', () => {
  /** API Management's answer to an operation it does not know (infra/policies/global.xml, OperationNotFound). */
  const apimNotFound = (): string => {
    const xml = readFileSync(join(__dirname, '../../infra/policies/global.xml'), 'utf8');
    const when = xml.slice(xml.indexOf('"OperationNotFound"'));
    return when.slice(when.indexOf('<set-body>') + '<set-body>'.length, when.indexOf('</set-body>'));
  };

  it.each([
    ['GET', '/v1/entities/agriphytosanitarys/urn:ngsi-ld:AgriPhytosanitary:1/versions'],
    ['GET', '/v1/nothing'],
    ['GET', '/'],
    ['POST', '/v1/siex/farms'],
    ['DELETE', '/v1/entities/agriphytosanitarys'],
  ] as const)('%s %s is a problem+json 404, word for word what API Management answers', async (method, path) => {
    const res = await call(method, path, { keys: farm.keys });
    expect([res.status, res.headers.get('content-type'), res.text]).toEqual([
      404,
      'application/problem+json',
      apimNotFound(),
    ]);
    checkProblemShape(res.json, 404);
  });
});
