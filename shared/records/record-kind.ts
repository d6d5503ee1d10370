import type { DateTime } from 'luxon';
import type { z } from 'zod';
import type { ReferenceData } from '../catalog/reference-data';
import type { RecordSettings } from '../config/settings';
import type { BackdateWindow } from '../domain/backdate-window';
import type { Violation } from '../domain/errors';
import type { FarmIndex } from '../farms/farm-index';
import type { CueFields } from '../siex/cue-descriptor';
import type { BlockIds } from './block-ids';
import type { FactNeed } from './record-facts';

/**
 * The port a record kind supplies to the records core. The core owns what every kind shares: ids, the commit of one
 * change (record, pointer, versions, history rows, idempotency entry, list token) in one entity-group transaction,
 * If-Match, the export state, the IdAjena of each CUE block, deletion, and the export pipeline. A kind owns what only
 * it knows: its wire schemas, how a request becomes its domain value, its stored formats, its rules, its recording
 * window, its view (what the API answers), the history rows its rules read, and its CUE blocks.
 *
 * `Request` is the kind's domain value of a registration request; `Record` the record in the kind's stored format,
 * `Answer` a record as the API answers it. The core stores the request as the kind's stored form of it (`toStored`,
 * in the record's pointer) and `Record`, as JSON documents it does not read; `Answer` is computed on every read.
 * Reference data (catalogues, products, cards) reaches a kind one way only: as an argument of the methods that need
 * it, read by the core once per attempt (a kind is a constant, built with nothing).
 *
 * The core's services over the port are in shared/records/ (register-record.ts, amend-record.ts, delete-record.ts,
 * read-record.ts, list-records.ts); docs/architecture.md, "Adding a record kind", lists what else a kind touches.
 */
export interface RecordKind<Request, Record, Resolution = unknown, Answer = unknown> {
  /**
   * The NGSI-LD type of its URNs (`urn:ngsi-ld:<urnType>:<id>`), and the name of the counter its record ids and the
   * IdAjena of its blocks are taken from (one sequence: a record id is its first block's IdAjena, see `cue.idAjena`).
   */
  readonly urnType: string;
  /** What the kind is called in messages and e-mails, in words ("treatment"). */
  readonly label: string;

  readonly wire: {
    /** The registration body, as the API validates it. */
    request: z.ZodType<unknown>;
  };

  /**
   * The wire body, once valid (`wire.request` parsed it), as the kind's domain value; and back (an amendment's merge
   * patch applies to the wire form, and a record's history lists the wire fields that changed).
   */
  toRequest(body: unknown): Request;
  toWire(request: Request): object;
  /**
   * The request as the record's pointer keeps it, in the kind's stored format; and a pointer's request, of whichever
   * format the kind ever stored, as the domain value (a kind whose stored request changes reads the old form here).
   */
  toStored(request: Request): object;
  fromStored(stored: unknown): Request;

  /** The application instant the request states (Madrid). */
  appliedAt(request: Request): DateTime;
  /**
   * How long after the application its record may be registered, or its date moved, on Madrid's calendar: the law's,
   * or one the operators set (`settings`, which the core hands over without reading).
   */
  recordingWindow(settings: RecordSettings): BackdateWindow;
  /** The value lists filter on (a product's code, a material's), stored on the record row. */
  listValue(request: Request): string;
  /**
   * The keys of the CUE blocks the request makes (one per crop and variety of its locations, as FEGA's descriptor has
   * it): the core gives each its IdAjena when the record is stored, and keeps it (shared/records/block-ids.ts).
   */
  blockKeys(farm: FarmIndex, request: Request): string[];

  /**
   * The history rows (row keys in the holding's partition, `g~...`) a change of this request must read and write under
   * their ETags, so that concurrent changes on the same ground serialise (one per product and SIGPAC enclosure for a
   * count of applications, one per enclosure for a limit on what it received).
   */
  historyKeys(farm: FarmIndex, request: Request): string[];
  /**
   * The history rows as they become once `removed` (an amendment's old request, a deleted record) is taken off and
   * `added` put on: every row the change touches, as the JSON document the core stores for it (rows of `rows` it does
   * not touch may be left out).
   */
  updatedHistory(change: HistoryChange<Request>): Map<string, unknown>;

  /**
   * The kind's rules on a request, against the reference data, the farm and the history rows read (less `own`, the
   * record being amended, which must not count against itself): every violation, or what judging resolved (the
   * register's uses that allowed it, the nitrogen it brings) for the view.
   */
  judge(ctx: JudgeContext<Request>): { violations: Violation[]; resolution: Resolution };
  /**
   * The facts other kinds publish that its rules read (shared/records/record-facts.ts), handed to `judge` as
   * `facts`; absent for a kind that reads none.
   */
  readonly facts?: FactNeed<Request>;

  /** The record stored for this request, in the kind's stored format, once judged. */
  view(input: ViewInput<Request, Resolution>): Record;
  /**
   * A stored record as the API answers it, now, with what an export would refuse of it, judged with the IdAjena the
   * record keeps for its blocks (`blockIds`).
   */
  answer(record: Record, farm: FarmIndex, blockIds: BlockIds | null): Answer;
  /** A stored record of an older format, read as it is meant now. */
  upgrade(record: Record, format: number): Record;
  /** The format version `view` writes. */
  readonly format: number;

  readonly cue: CueKindMapping<Record>;
}

/** What a kind's history update is given (RecordKind.updatedHistory). */
interface HistoryChange<Request> {
  /** The rows read, by row key (a row not written yet is absent). */
  rows: ReadonlyMap<string, unknown>;
  farm: FarmIndex;
  removed: Request | null;
  added: Request | null;
  reference: ReferenceData;
}

/** What a kind's rules are given (RecordKind.judge). */
export interface JudgeContext<Request> {
  request: Request;
  appliedAt: DateTime;
  now: DateTime;
  /**
   * The kind's recording window (`recordingWindow`); null for an amendment keeping its application date (corrections
   * are accepted all campaign long, whatever the kind).
   */
  window: BackdateWindow | null;
  farm: FarmIndex;
  history: ReadonlyMap<string, unknown>;
  own: Request | null;
  /** The catalogues, the products register and the ROPO cards, as they stand. */
  reference: ReferenceData;
  /** The facts of the topic the kind reads (`facts`), as the publishing kinds' records state them; absent: none. */
  facts?: readonly unknown[];
}

/** What a kind's view is built from (RecordKind.view). */
export interface ViewInput<Request, Resolution> {
  id: number;
  request: Request;
  resolution: Resolution;
  farm: FarmIndex;
  /** Whether SIEX holds the record as it is now (the view's `exported`). */
  exported: boolean;
  now: DateTime;
}

/**
 * How a kind's records go into the CUE document (schema 3.11.4, FEGA's descriptor, Anexo VI): in which
 * `ActividadesExplotacion` section, under which IdAjena field, in which formats, one block per block key.
 */
export interface CueKindMapping<Record> {
  /** The `ActividadesExplotacion` member its blocks go in, one of the schema's fifteen sections. */
  readonly section: string;
  /** The block's own id field, `IdAjena…` (number(10), allocated by the core). */
  readonly idAjena: string;
  /**
   * The field descriptor of its section: every value its blocks may carry, with its type, length and decimals and
   * their source (shared/siex/cue-descriptor.ts), keyed by the value's path in the document.
   */
  readonly fields: CueFields;
  /**
   * The record's blocks, one per block key, without their IdAjena (the core adds it), or what SIEX requires that the
   * record lacks (it is not sent, and the job says why).
   */
  map(record: Record, farm: FarmIndex): CueMapResult;
}

export type CueBlockBody = { [field: string]: unknown };
export type CueMapResult =
  { ok: true; blocks: { key: string; body: CueBlockBody }[] } | { ok: false; missing: string[] };
