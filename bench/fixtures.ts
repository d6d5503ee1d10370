import { TableClient, TransactionAction } from '@azure/data-tables';
import { DateTime } from 'luxon';
import { Dataset } from '../shared/backoffice/dataset-schema';
import { FarmIndex } from '../shared/farms/farm-index';
import { PhytoRequest } from '../shared/phyto/wire';
import { formatDateTime, ZONE } from '../shared/domain/dates';
import { holdingPartition } from '../shared/records/record-keys';
import { TableStore } from '../shared/store/tables';
import { changeActions, RecordView } from '../shared/records/record-rows';
import { RecordKind } from '../shared/records/record-kind';
import { creationChange } from '../shared/records/register-record';
import { phytoKind } from '../shared/phyto/phyto-kind';
import { phytoEntry } from '../shared/phyto/kind-entry';
import { phytoReads } from '../shared/phyto/kind-reads';
import { kindFormat } from '../shared/records/kind-format';
import { RecordFormat } from '../shared/records/record-store';
import { blockKeysOf } from '../shared/siex/cue-mapping';
import { buildRecord } from '../shared/phyto/record-view';
import { treatmentFromWire } from '../shared/phyto/wire-mapper';
import { buildDemoDataset } from '../local/demo/build-dataset';
import { client, farmCopy } from '../local/fixtures/dataset';

/** The bench's own client, product and list farm, added to the demo dataset (whose large farm has 5,000 enclosures). */
export const BENCH_CLIENT = {
  sid: 'bench-sid-key-0000000000000000000000000000',
  api: 'bench-api-key-000000000000000000000000000',
};
const BENCH_PRODUCT = 'ES-99001';
/** The campaign of today in Madrid: the bench registers applications dated now, which must fall in their farm's. */
const BENCH_CAMPAIGN = DateTime.now().setZone(ZONE).year;
export const LARGE_FARM = { rea: '46000000002', year: BENCH_CAMPAIGN };
export const LIST_FARM = { rea: '46999999999', year: BENCH_CAMPAIGN };
/** A copy of the large farm (DGC codes on every enclosure) whose records the export scenario sends to SIEX. */
export const EXPORT_FARM = { rea: '46999999998', year: BENCH_CAMPAIGN };
/**
 * A copy of the 5,000-enclosure farm for the tank-mix registrations: a holding partition of their own, as fresh as the
 * single-product ones found theirs.
 */
export const MIX_FARM = { rea: '46999999997', year: BENCH_CAMPAIGN };
/**
 * A second copy of the export farm for the mixed export (treatments and fertilizations): the records are seeded behind
 * the gateway's back, which its key index of a farm it already read would not see.
 */
export const MIXED_EXPORT_FARM = { rea: '46999999996', year: BENCH_CAMPAIGN };

export function benchDataset(): Dataset {
  const d = buildDemoDataset(BENCH_CAMPAIGN);
  d.clients.push(
    client({
      id: 'bench',
      name: 'Bench client',
      email: 'bench@example.org',
      sidKey: BENCH_CLIENT.sid,
      apiKey: BENCH_CLIENT.api,
      farms: [LARGE_FARM.rea, LIST_FARM.rea, EXPORT_FARM.rea, MIX_FARM.rea, MIXED_EXPORT_FARM.rea],
    }),
  );
  const product: Dataset['products'][number] = {
    code: BENCH_PRODUCT,
    name: 'BENCH FUNGICIDA',
    type: { id: 1, name: 'Fungicida' },
    holder: { name: 'BENCH S.A.', nif: '' },
    substance: { name: 'AZUFRE 80% [WG] P/P' },
    registered: '01-01-2020',
    expires: '31-12-2099',
    lastUse: '',
    requiredLevel: 'basico',
    uses: [
      {
        cropTypeIds: ['102'],
        pest: { code: 148, kind: 'enfermedad', name: 'Oídio de la vid, Erysiphe necator' },
        doseMin: 0.1,
        doseMax: 10,
        unit: { code: 18, symbol: 'L/ha' },
        maxApplications: 6,
        minIntervalDays: 7,
        safetyDays: 7,
      },
    ],
  };
  d.products.push(
    product,
    ...BENCH_MIX.map(([code, name, pest]) => ({
      ...product,
      code,
      name,
      uses: product.uses.map((u) => ({ ...u, pest })),
    })),
  );
  d.farms.push(farmCopy(d.farms[0]!, { rea: LIST_FARM.rea, codigoRea: 'ES469999999999', name: 'Finca Bench Listado' }));
  d.farms.push(
    farmCopy(d.farms[0]!, { rea: EXPORT_FARM.rea, codigoRea: 'ES469999999998', name: 'Finca Bench Exportación' }),
    farmCopy(d.farms[0]!, {
      rea: MIXED_EXPORT_FARM.rea,
      codigoRea: 'ES469999999996',
      name: 'Finca Bench Export mixto',
    }),
  );
  // The mix row starts on an empty holding partition, as the single row does: a copy of the large farm.
  const large = d.farms.find((f) => f.rea === LARGE_FARM.rea)!;
  d.farms.push(farmCopy(large, { rea: MIX_FARM.rea, codigoRea: 'ES469999999997', name: 'Finca Bench Mezclas' }));
  return d;
}

/** The products mixed with BENCH_PRODUCT in the mix scenario: its label, against a pest of their own. */
const BENCH_MIX = [
  ['ES-99002', 'BENCH INSECTICIDA', { code: 18, kind: 'plaga', name: 'Araña amarilla, Eotetranychus carpini' }],
  ['ES-99003', 'BENCH HERBICIDA', { code: 1, kind: 'mala_hierba', name: 'Malas hierbas' }],
] as const;

/** `phytoRequest` with BENCH_MIX in the tank, each product against its own pest. */
export function mixRequest(idcps: number[], at: DateTime): PhytoRequest {
  return {
    ...phytoRequest(idcps, at),
    mix: BENCH_MIX.map(([code, name, pest]) => ({
      subtype: { type: 'TypePhytosanitary', name, code },
      dose: 1.5,
      measure: { type: 'Measure', name: 'Litros por hectárea', symbol: 'L/ha', code: 18 },
      infection: { type: 'TypeInfection', kind: pest.kind, id: String(pest.code), name: pest.name },
    })),
  };
}

export function phytoRequest(idcps: number[], at: DateTime, product = BENCH_PRODUCT): PhytoRequest {
  return {
    type: 'AgriPhytosanitary',
    dateApplication: formatDateTime(at),
    subtype: { type: 'TypePhytosanitary', name: 'BENCH FUNGICIDA', code: product },
    dose: 2.5,
    measure: { type: 'Measure', name: 'Litros por hectárea', symbol: 'L/ha', code: 18 },
    idcp: idcps.map(String),
    applicator: { user: { type: 'UserMetadata', nif: '12345678Z', ropo: 'ES-46000123' } },
    infection: { type: 'TypeInfection', kind: 'enfermedad', id: '148', name: 'Oídio de la vid' },
    tj: [{ type: 'TypeJustification', id: '1', name: 'Superación de umbrales' }],
    efficacy: { type: 'TypeEfficacy', id: '1', name: 'Buena', detail: '' },
    // by hand with a backpack: SIEX needs the equipment's identifier (issue 23: none is made up for `manual` alone)
    machine: [{ type: 'Machine', id: '060303013', name: 'Mochila 16 L', roma: '', inspection: '', ref: 'MOCHILA-1' }],
    manual: true,
  };
}

/**
 * Writes `count` records straight into a farm's holding partition, exactly the rows a registration writes (record,
 * pointer, first version; no enclosure history, so the rules do not see them), several records per transaction,
 * spread over the last months, for the list and export benchmarks, in the data account the farm's rows live in
 * (shared/store/farm-accounts.ts). Ids start at `firstId`.
 */
export async function seedRecords(
  tables: TableStore,
  farm: FarmIndex,
  dataset: Dataset,
  count: number,
  firstId: number,
): Promise<void> {
  const product = dataset.products.find((p) => p.code === BENCH_PRODUCT)!;
  const idcp = farm.doc.idcps[0]!.idcp;
  const resolution = { entries: [farm.byIdcp.get(idcp)!], uses: product.uses };
  const table = await tables.farmTable(phytoEntry.table, farm.meta);
  await seedOfKind(table, farm, phytoKind, kindFormat(phytoEntry, phytoReads), count, firstId, (id, appliedAt, now) => {
    const request = treatmentFromWire(phytoRequest([idcp], appliedAt));
    return { request, record: buildRecord(id, request, product, resolution, farm, false, now), idcp: [String(idcp)] };
  });
}

/**
 * Writes `count` records of a kind straight into a farm's holding partition, as `seedRecords` says, one every 37
 * minutes back from now: `make` gives each its request, its record and its crop locations.
 */
export async function seedOfKind<Req, Rec extends RecordView>(
  table: TableClient,
  farm: FarmIndex,
  kind: RecordKind<Req, Rec>,
  format: RecordFormat<Rec>,
  count: number,
  firstId: number,
  make: (id: number, appliedAt: DateTime, now: DateTime) => { request: Req; record: Rec; idcp: string[] },
): Promise<void> {
  const now = DateTime.now().setZone(ZONE);
  const pk = holdingPartition(farm.meta);
  let actions: TransactionAction[] = [];
  for (let i = 0; i < count; i++) {
    const id = firstId + i;
    const appliedAt = now.minus({ minutes: 37 * i });
    const { request, record, idcp } = make(id, appliedAt, now);
    const change = creationChange(kind, {
      id,
      record,
      request,
      // one location, so one crop and variety, whose block takes the record id (shared/records/block-ids.ts)
      blockIds: Object.fromEntries(blockKeysOf(idcp, farm).map((key) => [key, id])),
      farmId: farm.meta.farmId,
      appliedAt,
      now,
      client: 'bench',
      guards: [],
      idempotency: null,
    });
    const rows = changeActions(pk, change, format.version, (record) => format.excerpts?.(record) ?? {});
    if (actions.length + rows.length > 100) {
      await table.submitTransaction(actions);
      actions = [];
    }
    actions.push(...rows);
  }
  if (actions.length > 0) await table.submitTransaction(actions);
}
