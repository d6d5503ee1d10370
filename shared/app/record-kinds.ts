import type { VersionedValue } from '../cache/versioned-value';
import type { ReferenceData } from '../catalog/reference-data';
import { longestDays } from '../domain/backdate-window';
import { ExportKind, exportKind, ExportKinds } from '../export/export-kinds';
import type { FertilizationStore } from '../fertilization/fertilization-store';
import { fertilizationKind } from '../fertilization/fertilization-kind';
import { FERTILIZATION_RECORDING_WINDOW } from '../fertilization/recording-window';
import { phytoKind } from '../phyto/phyto-kind';
import { PhytoStore } from '../phyto/phyto-store';
import { deleteAcceptedBySiex } from '../records/delete-record';
import { RecordKeyIndex } from '../records/record-key-index';
import { blockKeysOf } from '../siex/cue-mapping';
import { Counters, IdBlocks, IdSource } from '../store/counters';

/**
 * The treatments as the export takes them: rows of the old way get their block ids from the records' counter; a
 * deletion SIEX accepted is the core's, with the reference data the kind's history rows are counted with.
 */
export function treatmentExport(
  phyto: PhytoStore,
  keys: RecordKeyIndex,
  ids: IdSource,
  reference: VersionedValue<ReferenceData>,
): ExportKind {
  return exportKind(phytoKind, {
    store: phyto,
    keys,
    ids,
    legacyBlockKeys: (record, farm) => blockKeysOf(record.idcp, farm),
    deleteAccepted: (farm, deleted, by) =>
      deleteAcceptedBySiex({ kind: phytoKind, store: phyto, reference }, farm, deleted, by),
  });
}

/**
 * The record kinds the export pipeline takes (imported on the first export, job or deletion: docs/architecture.md,
 * "Cold start"), in the order a job's CUE document has their sections and its e-mail counts them: treatments
 * (`TratamFito`), then fertilizations (`Fertilizacion`). A new kind is one more entry here.
 */
export function exportKinds(parts: {
  counters: Counters;
  reference: VersionedValue<ReferenceData>;
  treatments: ExportKind;
  fertilization: FertilizationStore;
}): ExportKinds {
  const { fertilization, reference } = parts;
  return new ExportKinds([
    parts.treatments,
    exportKind(fertilizationKind, {
      store: fertilization,
      // A fertilization may be registered up to the decree's month back, so the key index keeps that much at hand.
      keys: new RecordKeyIndex(fertilization, longestDays(FERTILIZATION_RECORDING_WINDOW)),
      ids: new IdBlocks(parts.counters, fertilizationKind.urnType, 50),
      // The nitrogen a deleted fertilization takes off its enclosures is counted through the units in force.
      deleteAccepted: (farm, ids, by) =>
        deleteAcceptedBySiex({ kind: fertilizationKind, store: fertilization, reference }, farm, ids, by),
    }),
  ]);
}
