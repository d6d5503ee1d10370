import { DEMO_FARM } from './examples';
import { RecordVersion } from './history-schemas';

/** When the demo's records are amended, as every kind's examples show it. */
export const DEMO_AMENDED = '01-12-2026 09:30:00';

/**
 * The worked examples of a record kind's seven operations (the OpenAPI document's), from the demo flow: one record
 * registered (`request`, answered as `record`), listed, read, amended once (`amendment`, answered as `amended`, with
 * the fields it `changed`), deleted, and its history; a batch of it and a refused item (`batch`). What is the same for
 * every kind, written once.
 */
export function recordExamples(p: {
  id: string;
  request: Record<string, unknown>;
  record: { dateCreated: string };
  batch: { request: unknown[]; response: unknown[] };
  amendment: Record<string, unknown>;
  amended: unknown;
  changed: RecordVersion['changes'];
}) {
  const query = { agrifarmId: DEMO_FARM };
  const one = { params: { id: p.id }, query };
  const history: RecordVersion[] = [
    {
      version: 1,
      date: p.record.dateCreated,
      client: 'agrosoft-levante',
      kind: 'created',
      changes: Object.entries(p.request).map(([field, value]) => ({ field, old: null, new: value })),
    },
    { version: 2, date: DEMO_AMENDED, client: 'agrosoft-levante', kind: 'amended', changes: p.changed },
  ];
  return {
    register: { query, request: p.request, response: [p.record] },
    batch: { query, ...p.batch },
    list: { query: { ...query, page: 1, page_size: 20 }, response: [p.record] },
    read: { ...one, response: [p.record] },
    amend: { ...one, request: p.amendment, response: [p.amended] },
    delete: { ...one, response: undefined },
    history: { ...one, response: history },
  };
}
