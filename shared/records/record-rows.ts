import type { TransactionAction } from '@azure/data-tables';
import { z } from 'zod';
import { StoredResponse } from '../idempotency/idempotency';
import { DocProps, fromDocProps, toDocProps } from '../store/doc-entity';
import { BlockIds, blockIdsColumn, blockIdsOf } from './block-ids';
import { ExportState } from './export-state';
import { exportStateColumnNames, exportStateColumns, exportStateRow } from './export-state-row';
import { idempotencyRowKey, listMarkerRowKey, pointerRowKey, versionRowKey } from './record-keys';
import { RecordOutcome, recordEtag, StoredAnswer } from './record-result';
import { RecordVersion } from './record-version';

/**
 * How a record lies in its kind's table (record-keys.ts names the rows): its record row, its id pointer, its versions,
 * the history rows it counts in, the idempotency entries of the requests that changed it, and the farm's list token.
 * The records store writes a change as these rows (`changeActions`), the export's marks write their columns, and both
 * read them back here.
 */

/**
 * What the core needs to know of a kind's record as the API answers it (its view): whether SIEX holds it as it is, and
 * when it last changed. Every kind's view carries these, as the NGSI-LD records of the seed do.
 */
export interface RecordView {
  exported: '0' | '1';
  dateCreated: string;
  dateModified: string;
}

/**
 * A history row of the kind (for instance, one product on one enclosure and its applications by day), with the ETag it
 * was read under (none: not written yet). `doc` is the kind's own JSON document, kept in the `days` column the first
 * kind's rows always had, so rows written before kinds existed read as they are.
 */
export interface Guard {
  rowKey: string;
  doc: unknown;
  etag?: string;
}

/** An answer as a request's Idempotency-Key keeps it, as the export's claim writes it (its HTTP reply). */
export type IdempotencyEntry = StoredResponse;

/**
 * Where a record stands: `active` (listed, counted, amendable; while a deletion job sends its deletion to SIEX, that
 * job's claim holds it), `deleted` (gone from the list and the history rules; its pointer and versions stay for the
 * history).
 */
const recordStates = ['active', 'deleted'] as const;
type RecordState = (typeof recordStates)[number];

/** A record's pointer row: its row key, farm campaign, version and export state, read without the record itself. */
export interface RecordPointer {
  id: number;
  farmId: number;
  recordRowKey: string;
  /** What SIEX holds of the record, and which job last took it. */
  exportState: ExportState;
  /** Incremented by every change: the record's ETag. */
  version: number;
  state: RecordState;
  /** When the record was registered, `DD-MM-YYYY HH:mm:ss` Madrid (amendments keep it). */
  created: string;
  /** The IdAjena of each of its CUE blocks, by block key; null on rows written before they were kept (block-ids.ts). */
  blockIds: BlockIds | null;
  etag: string;
}

/** The record row to write: its key, what lists filter on, and the record as the API returns it. */
interface RecordRow<Rec> {
  rowKey: string;
  /** What lists filter on (for instance, a product code), kept in the `product` column rows always had. */
  product: string;
  appliedAtMs: number;
  record: Rec;
}

/**
 * One change of one record, written as a single entity-group transaction: the record row (written, replaced or
 * dropped), its pointer (created, or updated under the ETag read), the history rows of the enclosures it touches
 * (under theirs), its new version, the idempotency entry of the request and, when keys move, the list token.
 */
export interface RecordChange<Req, Rec> {
  id: number;
  write?: RecordRow<Rec>;
  /** A record row to delete: the old key after the application date changed, or the record on deletion. */
  drop?: string;
  pointer: {
    /** The ETag the pointer was read under; absent for a new record. */
    etag?: string;
    row: Omit<RecordPointer, 'id' | 'etag'>;
    /** The registration request the record stands for (null once deleted). */
    request: Req | null;
  };
  guards: Guard[];
  version: RecordVersion;
  idempotency: (StoredAnswer & { hash: string }) | null;
  /** The keys of the farm's records change otherwise than by a new record: per-process key indexes must re-read. */
  touchesKeys?: boolean;
}

const pointerRow = z.object({
  farmId: z.coerce.number().int(),
  recordRowKey: z.string(),
  version: z.coerce.number().int().positive(),
  state: z.enum(recordStates),
  created: z.string(),
  etag: z.string(),
});

/**
 * The columns a pointer is read from: not the registration request the row also keeps (amendments read that), which
 * is most of its size.
 */
export const POINTER_COLUMNS = [
  ...Object.keys(pointerRow.shape).filter((k) => k !== 'etag'),
  ...exportStateColumnNames,
  'blockIds' satisfies keyof ReturnType<typeof blockIdsColumn>,
];

export function pointerOf(row: Record<string, unknown>): RecordPointer {
  return {
    id: Number(String(row.rowKey).slice(2)),
    ...pointerRow.parse(row),
    exportState: exportStateColumns.parse(row),
    blockIds: blockIdsOf(row),
  };
}

/** A record's version row: the version as the history answers it. */
export function versionEntity(pk: string, id: number, version: RecordVersion): TransactionAction {
  return ['create', { partitionKey: pk, rowKey: versionRowKey(id, version.version), ...toDocProps(version) }];
}

/** The record row's excerpts (kind-entry.ts, `Publication.excerpt`) are a document of their own, `x0` and `xn`. */
const EXCERPTS = 'x';
/** The columns a read of excerpts alone selects. */
export const EXCERPT_COLUMNS = [`${EXCERPTS}0`, `${EXCERPTS}n`];

/**
 * The excerpts a record row keeps, by key, in one column: none when there are none, or when they would take more than
 * one property (64 KiB), so a read of that column alone stays one property a row; such a row is read whole instead.
 */
function excerptColumns(excerpts: Readonly<Record<string, unknown>>): DocProps {
  if (Object.keys(excerpts).length === 0) return {};
  const props = toDocProps(excerpts, EXCERPTS);
  return props[`${EXCERPTS}n`] === 1 ? props : {};
}

/** The excerpts a record row keeps, by key; undefined on a row that keeps none. */
export function excerptsOf(row: Record<string, unknown>): Readonly<Record<string, unknown>> | undefined {
  return row[`${EXCERPTS}n`] === 1 ? fromDocProps<Record<string, unknown>>(row, EXCERPTS) : undefined;
}

/**
 * The rows one change writes, in one entity-group transaction (at most 100 actions: a change touching more enclosure
 * histories than that cannot be written in one). Pointer and history rows carry the ETags they were read under.
 */
export function changeActions<Req, Rec extends RecordView>(
  pk: string,
  change: RecordChange<Req, Rec>,
  format: number,
  excerpts: (record: Rec) => Readonly<Record<string, unknown>> = () => ({}),
): TransactionAction[] {
  const actions: TransactionAction[] = [];
  if (change.drop && change.drop !== change.write?.rowKey) {
    actions.push(['delete', { partitionKey: pk, rowKey: change.drop }]);
  }
  if (change.write) {
    const w = change.write;
    const entity = {
      partitionKey: pk,
      rowKey: w.rowKey,
      recordId: change.id,
      product: w.product,
      appliedAt: w.appliedAtMs,
      exported: w.record.exported,
      format,
      ...blockIdsColumn(change.pointer.row.blockIds),
      ...toDocProps(w.record),
      ...excerptColumns(excerpts(w.record)),
    };
    actions.push(change.drop === w.rowKey ? ['upsert', entity, 'Replace'] : ['create', entity]);
  }
  const { row, request, etag } = change.pointer;
  const pointer = {
    partitionKey: pk,
    rowKey: pointerRowKey(change.id),
    farmId: row.farmId,
    recordRowKey: row.recordRowKey,
    ...exportStateRow(row.exportState),
    version: row.version,
    state: row.state,
    created: row.created,
    ...blockIdsColumn(row.blockIds),
    ...(request ? toDocProps(request, 'q') : {}),
  };
  actions.push(etag ? ['update', pointer, 'Replace', { etag }] : ['create', pointer]);
  for (const g of change.guards) {
    const entity = { partitionKey: pk, rowKey: g.rowKey, days: JSON.stringify(g.doc) };
    actions.push(g.etag ? ['update', entity, 'Replace', { etag: g.etag }] : ['create', entity]);
  }
  actions.push(versionEntity(pk, change.id, change.version));
  if (change.idempotency) actions.push(['create', idempotencyEntity(pk, storedResponseOf(change.idempotency))]);
  if (change.touchesKeys) {
    actions.push([
      'upsert',
      { partitionKey: pk, rowKey: listMarkerRowKey(row.farmId), token: `${change.id}.${change.version.version}` },
      'Replace',
    ]);
  }
  return actions;
}

/**
 * The columns an idempotency entry is stored with: the status, body and ETag header of the answer, as entries have
 * always been written (a deletion job's answer too, written with its claim), so every entry stored before the records
 * core reads as it is. It matches the interface's statuses (shared/http/record-reply.ts) without sharing them on
 * purpose: these numbers are a stored format, kept for good, which a change of the interface must not rewrite (nor
 * could the domain import the edge's table).
 */
const OUTCOME_STATUS: Readonly<Record<RecordOutcome, number>> = {
  created: 201,
  current: 200,
  deleted: 204,
  'deletion-started': 202,
};

/** An answer as its idempotency entry's columns keep it. */
export function storedResponseOf(answer: StoredAnswer & { hash: string }): IdempotencyEntry & { hash: string } {
  return {
    hash: answer.hash,
    requestHash: answer.requestHash,
    status: OUTCOME_STATUS[answer.outcome],
    body: answer.answerJson,
    ...(answer.version !== undefined ? { etag: recordEtag(answer.version) } : {}),
  };
}

/** An idempotency entry's columns, written now or before the records core, as the answer they keep. */
export function storedAnswerOf(entry: IdempotencyEntry): StoredAnswer {
  const outcome = (Object.keys(OUTCOME_STATUS) as RecordOutcome[]).find((o) => OUTCOME_STATUS[o] === entry.status);
  if (!outcome) throw new Error(`an idempotency entry holds no known answer (status ${entry.status})`);
  const version = entry.etag === undefined ? NaN : Number(entry.etag.replaceAll('"', ''));
  return {
    requestHash: entry.requestHash,
    outcome,
    answerJson: entry.body,
    ...(Number.isInteger(version) ? { version } : {}),
  };
}

export function idempotencyOf(row: Record<string, unknown>): StoredAnswer {
  return storedAnswerOf({
    requestHash: String(row.requestHash),
    status: Number(row.status),
    body: fromDocProps<string>(row),
    ...(typeof row.etagHeader === 'string' ? { etag: row.etagHeader } : {}),
  });
}

export function idempotencyEntity(
  pk: string,
  entry: IdempotencyEntry & { hash: string },
): { partitionKey: string; rowKey: string } & Record<string, unknown> {
  return {
    partitionKey: pk,
    rowKey: idempotencyRowKey(entry.hash),
    requestHash: entry.requestHash,
    status: entry.status,
    ...(entry.etag ? { etagHeader: entry.etag } : {}),
    ...toDocProps(entry.body),
  };
}
