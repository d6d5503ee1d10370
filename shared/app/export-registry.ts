import type { VersionedValue } from '../cache/versioned-value';
import type { ReferenceData } from '../catalog/reference-data';
import { ExportKind, exportKind, ExportKinds } from '../export/export-kinds';
import { deleteAcceptedBySiex } from '../records/delete-record';
import { KindEntry } from '../records/kind-entry';
import { KindParts, KindStores } from './kind-parts';
import { RECORD_KINDS } from './record-kinds';

/**
 * A record kind as the export pipeline takes it, with these parts: its records mapped through the kind's `cue`, rows of
 * the old way given their block ids, and a deletion SIEX accepted done as the kind's own deletion, with the reference
 * data its history rows are counted with.
 */
export function kindExport(
  entry: KindEntry,
  parts: Pick<KindParts, 'store' | 'keys' | 'ids'>,
  reference: VersionedValue<ReferenceData>,
): ExportKind {
  const kind = entry.load.kind();
  const reads = entry.load.reads();
  const { store, keys, ids } = parts;
  return exportKind(kind, {
    store,
    keys,
    ids,
    ...(reads.legacyBlockKeys ? { legacyBlockKeys: (record, farm) => reads.legacyBlockKeys!(record, farm) } : {}),
    deleteAccepted: (farm, deleted, by) => deleteAcceptedBySiex({ kind, store, reference }, farm, deleted, by),
  });
}

/**
 * The record kinds the export pipeline takes: every registered kind, in the registry's order (a job's CUE sections
 * and its e-mail's counts). Imported on the first export, job or deletion (docs/architecture.md, "Cold start").
 */
export function exportKinds(stores: KindStores, reference: VersionedValue<ReferenceData>): ExportKinds {
  return new ExportKinds(RECORD_KINDS.map((entry: KindEntry) => kindExport(entry, stores.of(entry), reference)));
}
