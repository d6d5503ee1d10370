import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { Client } from '../../shared/clients/client-store';
import { ZONE } from '../../shared/domain/dates';
import { jobHolding } from '../../shared/export/deletion-service';
import { FarmIndex, FarmIndexDoc } from '../../shared/farms/farm-index';
import { fertilizationKind } from '../../shared/fertilization/fertilization-kind';
import { fertilizationEntry } from '../../shared/fertilization/kind-entry';
import { phytoEntry } from '../../shared/phyto/kind-entry';
import { phytoKind } from '../../shared/phyto/phyto-kind';
import { PhytoStore } from '../../shared/phyto/phyto-store';
import { holdExcerpt, safeHarvest } from '../../shared/phyto/safe-harvest';
import { phytoReads } from '../../shared/phyto/kind-reads';
import { excerptKey } from '../../shared/records/kind-format';
import { holdingPartition } from '../../shared/records/record-keys';
import { HARVEST_HOLDS } from '../../shared/rules/harvest-holds';
import { toDocProps } from '../../shared/store/doc-entity';
import { amendRecord } from '../../shared/records/amend-record';
import { requestDeletion } from '../../shared/records/delete-record';
import { readRecordAnswer } from '../../shared/records/read-record';
import { RecordKind } from '../../shared/records/record-kind';
import { excerptsOf, RecordView } from '../../shared/records/record-rows';
import { RecordStore } from '../../shared/records/record-store';
import { inProcessServices, seedPhyto } from '../helpers/phyto-stack';
import { holdingEntities, testTables } from '../helpers/storage';

/**
 * Rows written by the code of 062f714 (test/fixtures/stored-rows/rows.json, captured by capture.ts beside it), read
 * through the code of today: every record answers its GET view, history, list value, wire request, history keys and
 * rows, CUE blocks and safe harvest as that code did, and an old record amended or deleted now moves its history rows
 * by what it had put on them.
 */
type Answers = Record<string, any>;
interface KindRows {
  rows: ({ partitionKey: string; rowKey: string } & Record<string, unknown>)[];
  records: Record<string, Answers>;
}
const fixture = JSON.parse(readFileSync(join(__dirname, '../fixtures/stored-rows/rows.json'), 'utf8')) as {
  farm: FarmIndexDoc;
  phyto: KindRows & { safeHarvest: unknown[] };
  fertilization: KindRows;
};

const NOW = DateTime.fromObject({ year: 2026, month: 5, day: 15, hour: 12 }, { zone: ZONE });
// The farm as the back office gives it now, saying that the holding manages its inputs sustainably (issue 35): a farm
// index stored before the flag says nothing, and its fertilizations would wait for it (fertilization-cue.test.ts).
const farm = new FarmIndex({ ...fixture.farm, meta: { ...fixture.farm.meta, sustainableInputs: true } });
const agrifarmId = `urn:ngsi-ld:AgriFarm:${farm.meta.farmId}`;
const client: Client = {
  id: 'stored-rows',
  name: 'Stored rows',
  email: 'stored-rows@erp.example',
  apiKeyHash: '',
  expires: '',
  farms: [farm.meta.rea],
  apimSubscriptionId: '',
  webhookUrl: '',
};
const tables = testTables();
const svc = inProcessServices(0, 'stored-rows');
const stores = { phyto: new PhytoStore(tables), fertilization: svc.kinds.of(fertilizationEntry).store };
const tableOf = { phyto: phytoEntry.table, fertilization: fertilizationEntry.table };
type Kind = RecordKind<any, any, any, any>;
const kinds: Record<'phyto' | 'fertilization', Kind> = { phyto: phytoKind, fertilization: fertilizationKind };

beforeAll(async () => {
  // The products and ROPO cards the rows name (an amendment judges them again), and the official catalogues.
  await seedPhyto({ farms: [], clients: [] });
  for (const name of ['phyto', 'fertilization'] as const) {
    const table = await tables.farmTable(tableOf[name], farm.meta);
    for (const row of await holdingEntities(tables, tableOf[name], farm.meta))
      await table.deleteEntity(String(row.partitionKey), String(row.rowKey));
    for (const row of fixture[name].rows) await table.createEntity(row);
  }
});

/** What the code answers now for a record, as capture.ts wrote down what the old code answered. */
async function answersOf(name: 'phyto' | 'fertilization', id: number): Promise<Answers> {
  const kind = kinds[name];
  const store: RecordStore<any, RecordView> = stores[name];
  const history = await store.readHistory(farm.meta, id);
  const { application } = await store.readApplication(farm.meta, id, null);
  if (!application?.request) return { id, history, deleted: true };
  // The pointer's request, as the kind reads what it stored.
  const request = kind.fromStored(application.request);
  const reference = await svc.reference.get();
  const read = await readRecordAnswer(kind, store, farm, id);
  const stored = (await store.readRecord(farm.meta, application.pointer.recordRowKey))!;
  return {
    id,
    history,
    version: read.version,
    view: JSON.parse(read.answerJson),
    wire: kind.toWire(request),
    listValue: kind.listValue(request),
    appliedAt: kind.appliedAt(request).toISO(),
    historyKeys: kind.historyKeys(farm, request),
    contribution: Object.fromEntries(
      kind.updatedHistory({ rows: new Map(), farm, removed: null, added: request, reference }),
    ),
    blockKeys: kind.blockKeys(farm, request),
    blockIds: stored.blockIds,
    cue: kind.cue.map(stored.record, farm),
  };
}

/**
 * What the code answers differently on purpose since the rows were captured, each change named with its issue; every
 * other answer must be as it was. Issue 35: the sludge flag follows the material, so the wire form leaves out a flag
 * that says what the material does (false, for these materials); manure nitrogen is charged per hectare of the
 * enclosure, so the slurry spread on 1 ha of its 1.25 ha enclosure brings it 105 kg N/ha, where the old code charged the
 * whole enclosure its 131.25 kg N/ha rate. Every Fertilizacion block says whether the holding manages its inputs
 * sustainably (`GestionSostInsu`, the farm's, as the record states none).
 */
function answeredNow(name: 'phyto' | 'fertilization', record: string, before: Answers): Answers {
  if (name === 'phyto') return before;
  const { sludge, ...wire } = before.wire as Record<string, unknown>;
  expect(sludge).toBe(false);
  const cue = before.cue as { ok: boolean; blocks: { body: Record<string, unknown> }[] };
  return {
    ...before,
    wire,
    cue: { ...cue, blocks: cue.blocks.map((b) => ({ ...b, body: { ...b.body, GestionSostInsu: true } })) },
    ...(record === 'slurry'
      ? { contribution: { 'g~manure-n~46-213-0-0-12-45-2': { campaigns: { '2026': 105000 } } } }
      : {}),
  };
}

describe.each(['phyto', 'fertilization'] as const)('%s rows of the first format', (name) => {
  it.each(Object.keys(fixture[name].records))('%s answers as it did', async (record) => {
    const before = fixture[name].records[record];
    expect(await answersOf(name, before.id)).toEqual(JSON.parse(JSON.stringify(answeredNow(name, record, before))));
  });
});

it("the treatments' safe harvest is the same", async () => {
  const records = await stores.phyto.readRecordsIn(farm.meta, undefined, undefined);
  const days = safeHarvest(
    records.map((s) => s.record),
    farm,
    NOW.plus({ days: 3 }),
  );
  expect(JSON.parse(JSON.stringify(days))).toEqual(fixture.phyto.safeHarvest);
});

function deps(name: 'phyto' | 'fertilization') {
  return {
    kind: kinds[name],
    store: stores[name],
    farms: { index: async (id: number) => (id === farm.meta.farmId ? farm : null) },
    reference: svc.reference,
    settings: { MAX_BACKDATE_DAYS: 7 },
    now: () => NOW,
    heldByJob: jobHolding(svc.jobs),
    ids: {
      take: () => Promise.reject(new Error('an old record keeps its block ids: none is taken')),
    },
  };
}

/** A history row as stored, by row key (absent: none). */
async function historyRow(name: 'phyto' | 'fertilization', rowKey: string): Promise<unknown> {
  const row = (await holdingEntities(tables, tableOf[name], farm.meta)).find((r) => r.rowKey === rowKey);
  return row && JSON.parse(String(row.days));
}

it('an old treatment amended lists only what the patch changed, and keeps its history rows', async () => {
  const before = fixture.phyto.records.mixed;
  const result = await amendRecord(deps('phyto'), {
    client,
    agrifarmId,
    recordId: before.id,
    ifMatch: '"2"',
    idempotencyKey: null,
    patch: { batch: 'L-1180' },
  });
  expect(result.version).toBe(3);
  const history = (await stores.phyto.readHistory(farm.meta, before.id))!;
  expect(history.at(-1)).toMatchObject({
    kind: 'amended',
    changes: [{ field: 'batch', old: 'L-1179', new: 'L-1180' }],
  });
  for (const key of before.historyKeys as string[])
    expect(await historyRow('phyto', key)).toEqual(
      JSON.parse(fixture.phyto.rows.find((r) => r.rowKey === key)!.days as string),
    );
});

it('an old fertilization deleted takes off its history rows what it had put on them', async () => {
  const before = fixture.fertilization.records.manure;
  const { done } = (await requestDeletion(deps('fertilization'), farm, {
    client,
    agrifarmId,
    recordId: before.id,
    ifMatch: null,
    idempotencyKey: null,
  })) as { done: unknown };
  expect(done).toEqual({ outcome: 'deleted', answerJson: '' });
  type Row = { campaigns: Record<string, number> };
  for (const key of before.historyKeys as string[]) {
    const stored = JSON.parse(String(fixture.fertilization.rows.find((r) => r.rowKey === key)!.days)) as Row;
    const own = (before.contribution as Record<string, Row>)[key];
    const left = Object.entries(stored.campaigns).map(([year, g]) => [year, g - (own.campaigns[year] ?? 0)]);
    const after = (await historyRow('fertilization', key)) as Row;
    expect(Object.entries(after.campaigns).filter(([, g]) => g !== 0)).toEqual(left.filter(([, g]) => g !== 0));
  }
});

describe("the treatments' harvest holds, read from the excerpt a row keeps (issue 34)", () => {
  const published = phytoReads.publishes![HARVEST_HOLDS];
  const holds = { key: excerptKey(HARVEST_HOLDS, published.excerpt!), of: published.excerpt!.of };
  /** A holding of its own for rows made here, so the fixture's partition stays as captured. */
  const other = { farmId: farm.meta.farmId, rea: `${farm.meta.rea}X` };
  const treatmentRows = () =>
    fixture.phyto.rows.filter((r) => r.rowKey.startsWith('r~') && !r.rowKey.endsWith('~list'));

  it("rows written before excerpts were kept are read whole: their holds are their records' own", async () => {
    const records = await stores.phyto.readRecordsIn(farm.meta, undefined, undefined);
    expect(treatmentRows().every((r) => r.xn === undefined)).toBe(true);
    const sources = await stores.phyto.readHoldingSources(farm.meta, 0, holds);
    expect(sources.map((s) => s.source)).toEqual(records.map((r) => holdExcerpt(r.record)));
    expect(sources.every((s) => s.farmId === farm.meta.farmId)).toBe(true);
  });

  it('a row keeping the excerpt is read by that column alone; one kept under another version is read whole', async () => {
    const table = await tables.farmTable(phytoEntry.table, other);
    const [first, second] = treatmentRows();
    const recordOf = async (row: { rowKey: string }) => (await stores.phyto.readRecord(farm.meta, row.rowKey))!.record;
    const marked = { ...holdExcerpt(await recordOf(first)), record: 'kept-excerpt' };
    const rows = [
      { ...first, partitionKey: holdingPartition(other), ...toDocProps({ [holds.key]: marked }, 'x') },
      { ...second, partitionKey: holdingPartition(other), ...toDocProps({ 'harvest-holds@0': marked }, 'x') },
    ];
    for (const row of rows) await table.upsertEntity(row, 'Replace');
    const sources = await stores.phyto.readHoldingSources(other, 0, holds);
    expect(sources.map((s) => s.source)).toEqual([marked, holdExcerpt(await recordOf(second))]);
  });

  it('a treatment written now keeps its excerpt on its row, and a harvest hold is read from it', async () => {
    const before = fixture.phyto.records.mixed;
    const { application } = await stores.phyto.readApplication(farm.meta, before.id, null);
    const row = (await holdingEntities(tables, phytoEntry.table, farm.meta)).find(
      (r) => r.rowKey === application!.pointer.recordRowKey,
    )!;
    const stored = (await stores.phyto.readRecord(farm.meta, application!.pointer.recordRowKey))!;
    // Amended above, so written by today's code.
    expect(excerptsOf(row)).toEqual({ [holds.key]: holdExcerpt(stored.record) });
  });
});
