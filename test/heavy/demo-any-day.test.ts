/**
 * The demo data works on any day of the year: at 12 days of the demo's campaign (the edges of the year, of months and of
 * summer time included), the gateway with the demo data as `npm start` loads it, its clock started on that day (the
 * runner's --clock-start), plays the README's flow as written and then a batch of 20 treatments, one on each enclosure of the
 * first farm the flow did not treat, each with a product the catalogue look-up lists for its crop that day, as an ERP
 * would pick it. Late November once had no vine product and one olive enclosure: the batch then got 422.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DateTime } from 'luxon';
import { buildDemoDataset, DEMO_FILE_CAMPAIGN } from '../../local/demo/build-dataset';
import { mailStubService } from '../../local/mail-stub/service';
import { officialCataloguesDir } from '../../local/siex-data';
import { siexSimulatorService } from '../../local/siex-simulator/service';
import { RunnerProcess, startRunnerProcess } from '../../local/runner/process';
import { findProjectRoot, ServicesStack, startServices } from '../../local/stack';
import { DATE_TIME_FORMAT, ZONE } from '../../shared/domain/dates';
import { call, Keys } from '../helpers/http';
import { expectFlowFinished, runReadmeFlow } from '../helpers/readme-flow';

const root = findProjectRoot(__dirname);

/** Madrid wall-clock times of the demo's campaign, one in each month. */
const DAYS = [
  '01-01 00:00:30', // the campaign's first minute (still 31 December in UTC)
  '14-02 09:00:00',
  '29-03 03:30:00', // the day summer time starts, just after the clocks jump
  '30-04 23:30:00', // a month's last half hour (21:30 UTC)
  '15-05 12:00:00',
  '21-06 18:00:00',
  '31-07 10:00:00',
  '15-08 08:00:00',
  '30-09 17:00:00',
  '25-10 01:30:00', // the day summer time ends
  '27-11 10:00:00', // late November, when the demo once had no vine product
  '31-12 22:00:00', // the campaign's last day
].map((day) => DateTime.fromFormat(`${day} ${DEMO_FILE_CAMPAIGN}`, 'dd-MM HH:mm:ss yyyy', { zone: ZONE }));

const [demoClient] = buildDemoDataset().clients;
const KEYS: Keys = { sidKey: demoClient.sidKey, apiKey: demoClient.apiKey };
const FARM = 'urn:ngsi-ld:AgriFarm:1';

interface ListedUse {
  dose: { min: number; unit: { code: number; symbol: string; name: string } };
  pests: { kind: string; code: number; name: string }[];
}
interface ListedProduct {
  code: string;
  name: string;
  uses: ListedUse[];
}
interface FarmAnswer {
  agriCrop: { crop: { typecrop: { id: string } }; agriParcel: { sigpac: { idcp: number }[] }[] }[];
}

/** A treatment of `idcp` with the first product the catalogue lists for its crop that day, at its smallest dose. */
function treatment(idcp: number, product: ListedProduct, at: DateTime): Record<string, unknown> {
  const [use] = product.uses;
  const [pest] = use.pests;
  return {
    type: 'AgriPhytosanitary',
    dateApplication: at.toFormat(DATE_TIME_FORMAT),
    subtype: { type: 'TypePhytosanitary', name: product.name, code: product.code },
    dose: use.dose.min,
    measure: { type: 'Measure', name: use.dose.unit.name, symbol: use.dose.unit.symbol, code: use.dose.unit.code },
    idcp: [String(idcp)],
    applicator: { user: { type: 'UserMetadata', nif: '12345678Z', ropo: 'ES-46000123' } },
    ...(pest ? { infection: { type: 'TypeInfection', kind: pest.kind, id: String(pest.code), name: pest.name } } : {}),
  };
}

/** Twenty treatments, one on each enclosure of the first farm but the flow's olive (idcp 4). */
async function batchOf20(gatewayUrl: string, at: DateTime): Promise<Record<string, unknown>[]> {
  const lookup = await call('GET', `/v1/siex/farms?rea=46000000001&year=${at.year}`, { keys: KEYS, base: gatewayUrl });
  expect(lookup.status).toBe(200);
  const [first] = lookup.json as FarmAnswer[];
  const products = new Map<string, ListedProduct>();
  const items: Record<string, unknown>[] = [];
  for (const crop of first.agriCrop) {
    const id = crop.crop.typecrop.id;
    if (!products.has(id)) {
      const listed = await call('GET', `/v1/catalog/products?crop=${id}`, { keys: KEYS, base: gatewayUrl });
      expect(listed.status).toBe(200);
      const [product] = listed.json as ListedProduct[];
      if (!product) throw new Error(`no product listed for crop ${id} on ${at.toISO()}`);
      products.set(id, product);
    }
    for (const idcp of crop.agriParcel.flatMap((p) => p.sigpac.map((s) => s.idcp)))
      if (idcp !== 4) items.push(treatment(idcp, products.get(id)!, at));
  }
  return items.slice(0, 20);
}

/** Every record of `collection` on the first farm, deleted; resolves once SIEX has taken the deletions it was sent. */
async function deleteAll(gatewayUrl: string, collection: string): Promise<void> {
  const list = await call('GET', `/v1/entities/${collection}?agrifarmId=${FARM}&page=1&page_size=100`, {
    keys: KEYS,
    base: gatewayUrl,
  });
  expect(list.status).toBe(200);
  for (const { id } of list.json as { id: string }[]) {
    const gone = await call('DELETE', `/v1/entities/${collection}/${id}?agrifarmId=${FARM}`, {
      keys: KEYS,
      base: gatewayUrl,
    });
    expect([202, 204]).toContain(gone.status);
    if (gone.status === 202) await settled(gatewayUrl, (gone.json as { id: number }).id);
  }
}

/** Polls the job until it settles (status 3, 4 or 5); the ceiling is jest's, which only a hang reaches. */
async function settled(gatewayUrl: string, jobId: number): Promise<void> {
  for (;;) {
    const job = await call('GET', `/api-service/v1/entities/jobstatus?jobId=${jobId}`, {
      keys: KEYS,
      base: gatewayUrl,
    });
    expect(job.status).toBe(200);
    const status = Number((job.json as { status: { id: string } }).status.id);
    if (status >= 3) return expect(status).toBe(3);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * One storage and one import for every day (all are in the campaign the demo is loaded for, so the flow's farm is
 * AgriFarm:1 on each), and a gateway per day, its clock started on that day. What a day registers is deleted before the
 * next, as a fresh `npm start` would not have it: the README's fourth run in a campaign is refused, by design.
 */
let dir: string;
let services: ServicesStack;
let dataset: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-any-day-'));
  dataset = path.join(dir, 'demo-dataset.json');
  fs.writeFileSync(dataset, JSON.stringify(buildDemoDataset(DEMO_FILE_CAMPAIGN)));
  services = await startServices({
    projectRoot: root,
    inMemory: true,
    dataset,
    catalogues: officialCataloguesDir(root),
    services: [siexSimulatorService(), mailStubService()],
  });
});
afterAll(async () => {
  await services?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.each(DAYS.map((day) => [day.toFormat('dd-MM-yyyy HH:mm ZZ'), day] as const))('on %s', (_, day) => {
  let gateway: RunnerProcess;

  beforeAll(async () => {
    gateway = await startRunnerProcess({
      projectRoot: root,
      dataset,
      quiet: true,
      clockStart: day.toISO()!,
      env: { ...process.env, ...services.env },
    });
  });
  afterAll(async () => {
    if (!gateway) return;
    await deleteAll(gateway.url, 'agriphytosanitarys');
    await deleteAll(gateway.url, 'agrifertilizes');
    await gateway.stop();
  });

  it("the README's flow registers, exports and reads the job's result", async () => {
    expectFlowFinished(await runReadmeFlow(gateway.url, day.toMillis()));
  });

  it('a batch of 20 treatments on 20 enclosures is registered whole', async () => {
    const items = await batchOf20(gateway.url, day);
    expect(items).toHaveLength(20);
    const answer = await call('POST', `/v1/entities/agriphytosanitarys/batch?agrifarmId=${FARM}`, {
      keys: KEYS,
      base: gateway.url,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(items),
    });
    expect(answer.status).toBe(200);
    const refused = (answer.json as { index: number; status: number; body: unknown }[]).filter((i) => i.status !== 201);
    expect(refused).toEqual([]);
  });
});
