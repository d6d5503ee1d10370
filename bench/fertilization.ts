import { DateTime } from 'luxon';
import { manureRequestBody } from '../local/fixtures/fertilization';
import { FertilizeRequest, fertilizeRequestSchema } from '../shared/fertilization/wire';
import { FarmIndex } from '../shared/farms/farm-index';
import { fertilizationOf } from '../shared/fertilization/wire-mapper';
import { fertilizationKind } from '../shared/fertilization/fertilization-kind';
import { fertilizationEntry } from '../shared/fertilization/kind-entry';
import { fertilizationView } from '../shared/fertilization/record-view';
import { StoredFertilization } from '../shared/fertilization/stored-record';
import { fertilizationReads } from '../shared/fertilization/kind-reads';
import { kindFormat } from '../shared/records/kind-format';
import { TableStore } from '../shared/store/tables';
import { seedOfKind } from './fixtures';
import { KindFloors } from './floors';
import { KindEntry } from '../shared/records/kind-entry';
import { measure, Row } from './measure';
import { GatewayCall, GatewayMeasure } from './stack';

/** Fertilizations as the app stores them. */
const FERTILIZATIONS = kindFormat<StoredFertilization>(fertilizationEntry, fertilizationReads);

/**
 * Issue 25's registration row: livestock manure on one location of the 5,000-enclosure farm, each request on a crop
 * location of its own, so each reads and writes one manure nitrogen row of the enclosure (the heaviest fertilization:
 * a mineral fertilizer reads none). Beside it, the storage floor (bench/floors.ts): that row read in one query, then
 * the record, its pointer, its first version and the row in one transaction, as registration writes them.
 */

/** Solid cattle manure, 20 t/ha at 0.5 % N: 100 kg N/ha, lawful on any enclosure of the farm once. */
const KG_N_PER_HA = 100;

function manureRequest(idcp: number, at: DateTime): FertilizeRequest {
  return fertilizeRequestSchema.parse(
    manureRequestBody({ dateStart: at.toFormat('dd-MM-yyyy'), idcp: String(idcp), tonnes: 20 }),
  );
}

/** What the row takes of the request rows' context (bench/request-rows.ts, RowContext). */
interface FertilizationRowContext {
  http: GatewayCall;
  gateway: GatewayMeasure;
  /** Storage through the counting proxy. */
  tables: TableStore;
  /** The 5,000-enclosure farm, its NGSI id and its crop locations. */
  large: FarmIndex;
  agrifarmId: string;
  idcps: number[];
  at: DateTime;
  floors: (entry: KindEntry) => KindFloors;
}

export async function fertilizationRegisterRow(p: FertilizationRowContext, n = 500): Promise<Row> {
  const register = await p.gateway(n, (i) =>
    p.http(
      'POST',
      `/v1/entities/agrifertilizes/?agrifarmId=${p.agrifarmId}`,
      manureRequest(p.idcps[i + 100]!, p.at),
      201,
    ),
  );
  const floor = await measure(
    (i) =>
      p
        .floors(fertilizationEntry)
        .register(p.large, 9_200_000_000 + i + 100, manureRequest(p.idcps[i + 100 + 2 * n]!, p.at)),
    n,
  );
  return {
    name: 'register fertilization (manure, 1 location)',
    gateway: register.latency,
    floor,
    roundTrips: register.roundTrips,
    note: 'one manure nitrogen row; floor = that row read, one transaction',
  };
}

/**
 * `count` stored manure fertilizations on the farm's first crop location, ids from `firstId`, as registration would have
 * written them (the mixed export's half of fertilizations): written straight to the farm's table in its data account,
 * as the treatments the export row seeds, so the row times the export and not the registrations.
 */
export async function seedFertilizations(
  tables: TableStore,
  farm: FarmIndex,
  count: number,
  firstId: number,
): Promise<void> {
  const idcp = farm.doc.idcps[0]!.idcp;
  const table = await tables.farmTable(fertilizationEntry.table, farm.meta);
  await seedOfKind(table, farm, fertilizationKind, FERTILIZATIONS, count, firstId, (id, appliedAt, now) => {
    const request = fertilizationOf(manureRequest(idcp, appliedAt));
    const record = fertilizationView({
      id,
      fertilization: request,
      nitrogenKgPerHa: KG_N_PER_HA,
      exported: false,
      now,
    });
    return { request, record, idcp: request.idcp.map(String) };
  });
}
