import { DateTime } from 'luxon';
import { Dataset } from '../shared/backoffice/dataset-schema';
import { FarmIndex } from '../shared/farms/farm-index';
import { FarmStore } from '../shared/farms/farm-store';
import { PhytoStore } from '../shared/phyto/phyto-store';
import { readChunkedDoc } from '../shared/store/chunked-doc';
import { TABLES, TableStore } from '../shared/store/tables';
import { phytoEntry } from '../shared/phyto/kind-entry';
import { KindEntry } from '../shared/records/kind-entry';
import { KindFloors } from './floors';
import { LARGE_FARM, LIST_FARM, MIX_FARM, mixRequest, phytoRequest, seedRecords } from './fixtures';
import { Latency, measure, Row } from './measure';
import { GatewayCall, GatewayMeasure } from './stack';
import { fertilizationRegisterRow } from './fertilization';
import { harvestRegisterRow } from './harvest';

/**
 * What the request-path rows share: the stack's storage and gateway, the 5,000-enclosure farm most of them work on,
 * and the registrations the register row leaves for the amend row.
 */
export interface RowContext {
  http: GatewayCall;
  gateway: GatewayMeasure;
  /** Storage through the counting proxy. */
  tables: TableStore;
  dataset: Dataset;
  farms: FarmStore;
  phyto: PhytoStore;
  /** The 5,000-enclosure farm, its NGSI id and its crop locations. */
  large: FarmIndex;
  agrifarmId: string;
  idcps: number[];
  /** When every registration says it was applied: an hour ago, inside its farm's campaign. */
  at: DateTime;
  /** The storage floors of every kind's changes (bench/floors.ts). */
  floors: (entry: KindEntry) => KindFloors;
  /** The warm farm lookups measured after the first request (bench/run.ts), which the farm lookup row reports. */
  lookup: { latency: Latency; roundTrips: number };
  /** The records the register row made through the gateway, and directly for its floor: the amend row amends them. */
  registered: string[];
  floorIds: number[];
}

/**
 * One row of the request-path table: `npm run bench -- <word>` runs it when its name (or a name in `alsoFor`, the
 * scenarios that need what it leaves behind) starts with the word. Rows run in this order.
 */
interface RequestRow {
  name: string;
  alsoFor?: string[];
  run(ctx: RowContext): Promise<Row>;
}

export const REQUEST_ROWS: RequestRow[] = [
  { name: 'farm lookup (5,000 enclosures)', run: farmLookupRow },
  { name: 'listidcp (100 enclosures)', run: listIdcpRow },
  { name: 'register (1 location)', alsoFor: ['amend'], run: registerRow },
  { name: 'register (3-product mix, 1 location)', run: mixRow },
  { name: 'amend (1 location)', run: amendRow },
  // Issue 25: the fertilizations' table, on the same farm's locations.
  { name: 'register fertilization (manure, 1 location)', run: fertilizationRegisterRow },
  // The refused requests read the farm this row fills.
  { name: 'list (10,000 records, page of 100)', alsoFor: ['refused', 'register harvest'], run: listRow },
  // Issue 34: a harvest reads the holding's treatments, which the list row leaves at 10,000.
  { name: 'register harvest (10,000 treatments)', run: harvestRegisterRow },
];

async function farmLookupRow(ctx: RowContext): Promise<Row> {
  const key = `lookup~${LARGE_FARM.rea}~${LARGE_FARM.year}`;
  const farmsTable = await ctx.tables.table(TABLES.farms);
  const floor = await measure(async () => void (await readChunkedDoc(farmsTable, key)), 200);
  return {
    name: 'farm lookup (5,000 enclosures)',
    gateway: ctx.lookup.latency,
    floor,
    roundTrips: ctx.lookup.roundTrips,
  };
}

async function listIdcpRow(ctx: RowContext): Promise<Row> {
  const crop = ctx.large.doc.crops[0]!;
  const enclosures = ctx.large.doc.idcps
    .slice(0, 100)
    .map(({ prov, town, aggr, zone, pol, parc, enc }) => ({ prov, town, aggr, zone, pol, parc, enc }));
  const body = {
    type: 'IDCP',
    crop: {
      type: 'TypeCropVariety',
      typecrop: { id: crop.typecropId, type: 'TypeCrop', name: crop.typecropName },
      code: crop.code,
      name: crop.name,
    },
    regionalAttributes: [{ sigpac: enclosures }],
  };
  const listIdcp = await ctx.gateway(300, () =>
    ctx.http('POST', `/v1/siex/listidcp/?agrifarmId=${ctx.agrifarmId}`, body, 200),
  );
  const farmsTable = await ctx.tables.table(TABLES.farms);
  const floor = await measure(
    async () => void (await readChunkedDoc(farmsTable, `farm~${ctx.large.meta.farmId}`)),
    300,
  );
  return {
    name: 'listidcp (100 enclosures)',
    gateway: listIdcp.latency,
    floor,
    roundTrips: listIdcp.roundTrips,
    note: 'farm index from memory; floor = reading it',
  };
}

/** One record per request, each on its own crop location so every one is lawful. */
async function registerRow(ctx: RowContext): Promise<Row> {
  const register = await ctx.gateway(500, async (i) => {
    const [created] = (await ctx.http(
      'POST',
      `/v1/entities/agriphytosanitarys/?agrifarmId=${ctx.agrifarmId}`,
      phytoRequest([ctx.idcps[i + 100]!], ctx.at),
      201,
    )) as { id: string }[];
    ctx.registered.push(created!.id);
  });
  const floor = await measure((i) => {
    const id = 9_000_000_000 + i + 100;
    ctx.floorIds.push(id);
    return ctx.floors(phytoEntry).register(ctx.large, id, phytoRequest([ctx.idcps[i + 1000]!], ctx.at));
  }, 500);
  return {
    name: 'register (1 location)',
    gateway: register.latency,
    floor,
    roundTrips: register.roundTrips,
    note: 'incl. id blocks of 50',
  };
}

/**
 * A three-product tank mix on one location: three history rows read and written instead of one. On a copy of the
 * large farm, so that its holding partition starts as empty as the single registrations' did.
 */
async function mixRow(ctx: RowContext): Promise<Row> {
  const mixFarm = (await ctx.farms.index((await ctx.farms.lookupInfo(MIX_FARM.rea, MIX_FARM.year))!.farmId))!;
  const mixIdcps = mixFarm.doc.idcps.map((e) => e.idcp);
  const register = await ctx.gateway(500, (i) =>
    ctx.http(
      'POST',
      `/v1/entities/agriphytosanitarys/?agrifarmId=urn:ngsi-ld:AgriFarm:${mixFarm.meta.farmId}`,
      mixRequest([mixIdcps[i + 100]!], ctx.at),
      201,
    ),
  );
  const floor = await measure(
    (i) => ctx.floors(phytoEntry).register(mixFarm, 9_100_000_000 + i + 100, mixRequest([mixIdcps[i + 1000]!], ctx.at)),
    500,
  );
  return {
    name: 'register (3-product mix, 1 location)',
    gateway: register.latency,
    floor,
    roundTrips: register.roundTrips,
    note: 'each product judged alone; 3 history rows',
  };
}

/** A merge patch of the dose on each record the register row made; the floor amends the floor's records. */
async function amendRow(ctx: RowContext): Promise<Row> {
  const amend = await ctx.gateway(500, (i) =>
    ctx.http(
      'PATCH',
      `/v1/entities/agriphytosanitarys/${encodeURIComponent(ctx.registered[i + 50]!)}?agrifarmId=${ctx.agrifarmId}`,
      { dose: 0.7 },
      200,
    ),
  );
  const floor = await measure(
    (i) => ctx.floors(phytoEntry).amend(ctx.large, ctx.floorIds[i + 50]!, { dose: 0.7 }),
    500,
  );
  return {
    name: 'amend (1 location)',
    gateway: amend.latency,
    floor,
    roundTrips: amend.roundTrips,
    note: 'merge patch of the dose; floor = pointer, history, one transaction',
  };
}

/** A farm with 10,000 records, a page of 100 from the middle. */
async function listRow(ctx: RowContext): Promise<Row> {
  const listInfo = (await ctx.farms.lookupInfo(LIST_FARM.rea, LIST_FARM.year))!;
  const listFarm = (await ctx.farms.index(listInfo.farmId))!;
  await seedRecords(ctx.tables, listFarm, ctx.dataset, 10_000, 8_000_000_000);
  const listPath = `/v1/entities/agriphytosanitarys/?agrifarmId=urn:ngsi-ld:AgriFarm:${listInfo.farmId}&page=50&page_size=100`;
  const list = await ctx.gateway(100, () => ctx.http('GET', listPath, undefined, 200));
  // The storage work of a warm list: the keys inside the back-dating window (one query) and the page's records.
  const page = (await ctx.phyto.listKeys(listFarm.meta)).slice(4900, 5000);
  const windowStart = Date.now() - (7 + 2) * 24 * 3600_000;
  const floor = await measure(async () => {
    await ctx.phyto.scanKeys(listFarm.meta, windowStart);
    await ctx.phyto.readRange(listFarm.meta, page[0]!, page.at(-1)!);
  }, 100);
  return {
    name: 'list (10,000 records, page of 100)',
    gateway: list.latency,
    floor,
    roundTrips: list.roundTrips,
    note: 'keys older than the back-dating window from memory',
  };
}
