import { z } from 'zod';

/** What happened to a record in one version. */
const recordChangeKinds = ['created', 'amended', 'deleted', 'exported', 're-exported'] as const;

const fieldChangeSchema = z
  .object({
    field: z.string().describe('a field of the record, named as in the registration request'),
    old: z.unknown().describe('its value before the change (null: not set)'),
    new: z.unknown().describe('its value after the change (null: not set)'),
  })
  .meta({ id: 'FieldChange' });

export const recordVersionSchema = z
  .object({
    version: z.number().int().positive().describe("the record's version after this change: its ETag then"),
    date: z.string().describe('when, DD-MM-YYYY HH:mm:ss Madrid'),
    client: z.string().describe('the client that made the change (for exports: the client that started the job)'),
    kind: z.enum(recordChangeKinds),
    jobId: z.number().int().positive().optional().describe('the export job, for exported and re-exported'),
    changes: z.array(fieldChangeSchema).describe('every field that changed, with its old and new value'),
  })
  .meta({ id: 'RecordVersion' });
export type RecordVersion = z.infer<typeof recordVersionSchema>;
