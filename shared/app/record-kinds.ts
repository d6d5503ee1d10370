import { ExportKind, exportKind, ExportKinds } from '../export/export-kinds';
import { FERTILIZACION_BLOCKS, fertilizationKind } from '../fertilization/fertilization-kind';
import { ReferenceData } from '../catalog/reference-data';
import { VersionedValue } from '../cache/versioned-value';
import { deleteAcceptedBySiex as deleteAcceptedOfKind } from '../records/delete-record';
import { deleteAcceptedBySiex } from '../phyto/delete-service';
import { PhytoStore, TREATMENT_TYPE } from '../phyto/phyto-store';
import { RecordKeyIndex } from '../records/record-key-index';
import { blockKeysOf, treatmentCue } from '../siex/cue-mapping';
import { Counters, IdBlocks, IdSource } from '../store/counters';
import type { FertilizeRecord } from '../api/fertilization-schemas';
import type { Fertilization } from '../fertilization/fertilization';
import type { RecordStore } from '../records/record-store';

/** Fertilizations on the records core: the `fertilization` table, in its first format. */
export type FertilizationStore = RecordStore<Fertilization, FertilizeRecord>;

/** The treatments as the export takes them: rows of the old way get their block ids from the records' counter. */
export function treatmentExport(phyto: PhytoStore, keys: RecordKeyIndex, ids: IdSource): ExportKind {
  return exportKind(
    { urnType: TREATMENT_TYPE, label: 'treatment', cue: treatmentCue },
    {
      store: phyto,
      keys,
      ids,
      legacyBlockKeys: (record, farm) => blockKeysOf(record.idcp, farm),
      deleteAccepted: (farm, ids, by) => deleteAcceptedBySiex(phyto, farm, ids, by),
    },
  );
}

/**
 * The record kinds the export pipeline takes (imported on the first export, job or deletion: docs/architecture.md,
 * "Cold start"), in the order a job's CUE document has their sections and its e-mail
 * counts them: treatments (`TratamFito`), then fertilizations (`Fertilizacion`). A new kind is one more entry here.
 */
export function exportKinds(parts: {
  counters: Counters;
  maxBackdateDays: number;
  reference: VersionedValue<ReferenceData>;
  treatments: ExportKind;
  fertilization: FertilizationStore;
}): ExportKinds {
  const { fertilization, reference } = parts;
  return new ExportKinds([
    parts.treatments,
    exportKind(
      { urnType: 'AgriFertilize', label: 'fertilization', cue: FERTILIZACION_BLOCKS },
      {
        store: fertilization,
        keys: new RecordKeyIndex(fertilization, parts.maxBackdateDays),
        ids: new IdBlocks(parts.counters, 'AgriFertilize', 50),
        // The nitrogen a deleted fertilization takes off its enclosures is counted through the units in force.
        deleteAccepted: async (farm, ids, by) => {
          const { codes } = await reference.get();
          await deleteAcceptedOfKind({ kind: fertilizationKind(() => codes), store: fertilization }, farm, ids, by);
        },
      },
    ),
  ]);
}
