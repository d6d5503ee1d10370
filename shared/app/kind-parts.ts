import { BatchKeyStore } from '../records/batch-keys';
import { KindEntry, RecordOf } from '../records/kind-entry';
import { kindFormat } from '../records/kind-format';
import { RecordKeyIndex } from '../records/record-key-index';
import { RecordView } from '../records/record-rows';
import { RecordStore } from '../records/record-store';
import { Counters, IdBlocks } from '../store/counters';
import { TableStore } from '../store/tables';

/** What one process keeps of a record kind: its store, its id counter, its key index, its batches' keys. */
export interface KindParts<Rec extends RecordView = RecordView> {
  /** Its records, and its pointers' requests in the kind's stored format (only the kind reads them: `fromStored`). */
  store: RecordStore<unknown, Rec>;
  /** Record ids and the IdAjena of their blocks, reserved 50 at a time: one counter round trip per 50 records. */
  ids: IdBlocks;
  /** The farm's record keys, mostly from memory, which lists and exports count with. */
  keys: RecordKeyIndex;
  batchKeys: BatchKeyStore;
}

/**
 * Each registered kind's parts, built on the kind's first use from its entry (its table, its URN type as the counter's
 * name) and its read side (stored format, key window): a request of another kind, or none, starts none of its modules.
 * One set per kind and process, so the registrations, lists and exports of a kind share its counter and key index.
 */
export class KindStores {
  private readonly built = new Map<KindEntry, KindParts>();

  constructor(private readonly deps: { tables: TableStore; counters: Counters; maxBackdateDays: number }) {}

  of<E extends KindEntry>(entry: E): KindParts<RecordOf<E>> {
    let parts = this.built.get(entry);
    if (!parts) {
      parts = this.build(entry);
      this.built.set(entry, parts);
    }
    // The store holds what the entry's kind writes: its own record type.
    return parts as unknown as KindParts<RecordOf<E>>;
  }

  private build(entry: KindEntry): KindParts {
    const reads = entry.load.reads();
    const { tables, counters, maxBackdateDays } = this.deps;
    const store = new RecordStore<unknown, RecordView>(tables, kindFormat(entry, reads));
    return {
      store,
      ids: new IdBlocks(counters, entry.urnType, 50),
      keys: new RecordKeyIndex(store, reads.keyIndexDays(maxBackdateDays)),
      batchKeys: new BatchKeyStore(tables, entry.table),
    };
  }
}
