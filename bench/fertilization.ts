import { TableClient } from '@azure/data-tables';
import { DateTime } from 'luxon';
import { manureRequestBody } from '../local/fixtures/fertilization';
import { FertilizeRequest, fertilizeRequestSchema } from '../shared/fertilization/wire';
import { FarmIndex } from '../shared/farms/farm-index';
import { fertilizationOf } from '../shared/fertilization/wire-mapper';
import { fertilizationKind } from '../shared/fertilization/fertilization-kind';
import { fertilizationEntry } from '../shared/fertilization/kind-entry';
import { manureRowKeys, ManureNitrogenRow, updatedManureRows } from '../shared/fertilization/manure-nitrogen';
import { fertilizationView } from '../shared/fertilization/record-view';
import { StoredFertilization } from '../shared/fertilization/stored-record';
import { fertilizationReads } from '../shared/fertilization/kind-reads';
import { kindFormat } from '../shared/records/kind-format';
import { RecordStore } from '../shared/records/record-store';
import { creationChange, guardsToWrite } from '../shared/records/register-record';
import { blockKeysOf } from '../shared/siex/cue-mapping';
import { TableStore } from '../shared/store/tables';
import { seedOfKind } from './fixtures';
import { measure, Row } from './measure';
import { GatewayCall, GatewayMeasure } from './stack';

/** Fertilizations as the app stores them. */
const FERTILIZATIONS = kindFormat<StoredFertilization>(fertilizationEntry, fertilizationReads);

/**
 * Issue 25's registration row: livestock manure on one location of the 5,000-enclosure farm, each request on a crop
 * location of its own, so each reads and writes one manure nitrogen row of the enclosure (the heaviest fertilization:
 * a mineral fertilizer reads none). Beside it, the storage floor: that row and an idempotency key read in one query,
 * then the record, its pointer, its first version and the row in one transaction, as registration writes them.
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
}

export async function fertilizationRegisterRow(p: FertilizationRowContext, n = 500): Promise<Row> {
  const store = new RecordStore<unknown, StoredFertilization>(p.tables, FERTILIZATIONS);
  const register = await p.gateway(n, (i) =>
    p.http(
      'POST',
      `/v1/entities/agrifertilizes/?agrifarmId=${p.agrifarmId}`,
      manureRequest(p.idcps[i + 100]!, p.at),
      201,
    ),
  );
  const floor = await measure(async (i) => {
    const id = 9_200_000_000 + i + 100;
    const request = fertilizationOf(manureRequest(p.idcps[i + 100 + 2 * n]!, p.at));
    const keys = manureRowKeys(p.large, request);
    const state = await store.readRegistrationState(p.large.meta, keys, `bench-ferti-${id}`);
    const rows = new Map([...state.guards].map(([key, g]) => [key, g.doc as ManureNitrogenRow]));
    const updated = updatedManureRows(rows, p.large, null, { fertilization: request, kgPerHa: KG_N_PER_HA });
    const record = fertilizationView({
      id,
      fertilization: request,
      nitrogenKgPerHa: KG_N_PER_HA,
      exported: false,
      now: p.at,
    });
    await store.commit(
      p.large.meta,
      creationChange(fertilizationKind, {
        id,
        record,
        request,
        // one location, so one crop and variety, whose block takes the record id (shared/records/block-ids.ts)
        blockIds: Object.fromEntries(blockKeysOf(request.idcp.map(String), p.large).map((key) => [key, id])),
        farmId: p.large.meta.farmId,
        appliedAt: p.at,
        now: p.at,
        client: 'bench',
        guards: guardsToWrite(state, updated),
        idempotency: null,
      }),
    );
  }, n);
  return {
    name: 'register fertilization (manure, 1 location)',
    gateway: register.latency,
    floor,
    roundTrips: register.roundTrips,
    note: 'one manure nitrogen row; floor = that row and the key read, one transaction',
  };
}

/**
 * `count` stored manure fertilizations on the farm's first crop location, ids from `firstId`, as registration would have
 * written them (the mixed export's half of fertilizations): written straight to the table, as the treatments the export
 * row seeds, so the row times the export and not the registrations.
 */
export async function seedFertilizations(
  table: TableClient,
  farm: FarmIndex,
  count: number,
  firstId: number,
): Promise<void> {
  const idcp = farm.doc.idcps[0]!.idcp;
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
