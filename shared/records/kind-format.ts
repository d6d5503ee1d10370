import type { KindEntry, KindReads, Publication } from './kind-entry';
import type { RecordView } from './record-rows';
import type { RecordFormat } from './record-store';

/**
 * How a kind's records lie in storage, from its entry and its read side: its table, the format its rows are written
 * in and read from, and the excerpts its rows keep for the facts it publishes. The one place a kind's store is
 * described, so that every store of a kind (the app's, a bench's or a test's) writes the same rows.
 */
export function kindFormat<Rec extends RecordView = RecordView>(
  entry: Pick<KindEntry, 'table'>,
  reads: KindReads,
): RecordFormat<Rec> {
  return {
    table: entry.table,
    version: reads.format,
    // A kind's read side is erased to RecordView; its stored rows are its own record type.
    upgrade: (record, format) => reads.upgrade(record, format) as Rec,
    excerpts: (record) => excerptsOf(reads, record),
  };
}

/** Where a row keeps a publication's excerpt: its topic and the version of its shape. */
export const excerptKey = (topic: string, excerpt: NonNullable<Publication['excerpt']>): string =>
  `${topic}@${excerpt.version}`;

/** The excerpts a record row of a kind keeps, by key: one for each topic the kind publishes with an excerpt. */
export function excerptsOf(reads: KindReads, record: RecordView): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [topic, publication] of Object.entries(reads.publishes ?? {}))
    if (publication.excerpt) out[excerptKey(topic, publication.excerpt)] = publication.excerpt.of(record);
  return out;
}
