import { z } from 'zod';

/**
 * A record's history as the records core keeps it: one version row per change, in the record's partition. The stored
 * format is the core's own, read through this schema; the interface answers it as it is (shared/api/history-schemas.ts
 * states the same shape for clients), so rows written before this type existed read unchanged.
 */
const recordChangeKinds = ['created', 'amended', 'deleted', 'exported', 're-exported'] as const;

/** A field of the registration request that a change changed, with its old and new value (null: not set). */
const fieldChangeRow = z.object({ field: z.string(), old: z.unknown(), new: z.unknown() });
export type FieldChange = z.infer<typeof fieldChangeRow>;

export const recordVersionRow = z.object({
  /** The record's version after this change: its ETag then. */
  version: z.number().int().positive(),
  /** `DD-MM-YYYY HH:mm:ss`, Madrid. */
  date: z.string(),
  /** The client that made the change (for exports: the client that started the job). */
  client: z.string(),
  kind: z.enum(recordChangeKinds),
  /** The export job, for exported and re-exported. */
  jobId: z.number().int().positive().optional(),
  changes: z.array(fieldChangeRow),
});

export type RecordVersion = z.infer<typeof recordVersionRow>;
