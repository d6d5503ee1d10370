import type { DateTime } from 'luxon';
import type { z } from 'zod';
import type { ErrorCode, KindErrorTable } from '../domain/errors';
import type { EntityType } from '../domain/urn';
import type { FarmIndex } from '../farms/farm-index';
import type { BlockIds } from './block-ids';
import type { ListFilter, ListQuery } from './list-records';
import type { CatalogueDetails } from '../catalog/catalogue-views';
import type { ReferenceData } from '../catalog/reference-data';
import type { Catalogues } from '../catalog/siex-codes/catalogues';
import type { RecordKind } from './record-kind';
import type { RecordView } from './record-rows';

/**
 * A record kind as the registry lists it (shared/app/record-kinds.ts, one line a kind): what start-up needs to
 * register the kind's seven operations (its addresses), and loaders of its heavy modules, each called on first use and
 * never at start-up. A kind's folder defines its entry (`shared/<kind>/kind-entry.ts`); from the registry the core
 * makes the kind's routes, contracts, handlers, OpenAPI operations, table and store, id counter and key index, and its
 * place in the export.
 *
 * Plain data and functions, no schema library: functions/index.ts registers the functions from the entries alone
 * (docs/architecture.md, "Cold start").
 */
export interface KindEntry<Stem extends string = string> {
  /** The NGSI-LD type of its URNs (`urn:ngsi-ld:<urnType>:<n>`), the name of its id counter and its records' in jobs. */
  readonly urnType: EntityType;
  /** The table of its records, their history rows and their idempotency entries. */
  readonly table: string;
  /** The path of its collection, without a leading slash: registration and list; `/{id}` and `/batch` below it. */
  readonly collection: string;
  /**
   * What its operation ids are made of: `register<Stem>`, `register<Stem>Batch`, `list<Stem>`, `read<Stem>`,
   * `amend<Stem>`, `delete<Stem>`, `<stem>History`.
   */
  readonly stem: Stem;
  /**
   * What the OpenAPI summaries call one record and many ("Register a <one>", "List the <many> of a farm campaign"), and
   * `tag`, what the document's `records` tag calls the kind, when it names it there.
   */
  readonly label: { readonly a: string; readonly one: string; readonly many: string; readonly tag?: string };
  readonly load: KindModules;
  /**
   * The codes only its rules raise, each with its meaning and status (`shared/<kind>/errors.ts`); none when its rules
   * raise the core's codes alone. The app lays them after the core's, in the registry's order (shared/app/error-codes.ts).
   */
  readonly errorCodes?: KindErrorTable;
  /** The views of a farm campaign it brings beside its seven operations, each an operation of its own; often none. */
  readonly views?: readonly ViewEntry[];
}

/**
 * A view of a farm campaign a kind brings (shared/app/farm-views.ts makes its route, contract, handler and use case):
 * a GET that answers, per crop location, what the facts the kinds publish say (shared/records/record-facts.ts). Its
 * address here, for start-up; the rest loaded on its first use.
 */
export interface ViewEntry<Id extends string = string> {
  readonly operationId: Id;
  /** Its path, without a leading slash. */
  readonly route: string;
  /** What the document's `farms` tag says the farm campaign's operations show of it. */
  readonly shows: string;
  /** The view, required on its first use. */
  load(): KindView;
}

/** A view's contract (its query, its answer of one crop location, texts, codes, example) and how it is answered. */
export interface KindView<Query extends { agrifarmId: string } = { agrifarmId: string }> {
  readonly summary: string;
  readonly description: string;
  /** The query: the farm campaign (`agrifarmId`) and the view's own parameters. */
  readonly query: z.ZodType<Query>;
  /** One crop location's answer; the view answers an array of them. */
  readonly answer: z.ZodType;
  /** What the array holds, in the words of the document's 200. */
  readonly answers: string;
  /** The codes it may answer beyond those every operation shares. */
  readonly errors: readonly ErrorCode[];
  readonly example: OperationExample;
  /** The answer to a query, from what the core reads for it. */
  view(query: Query, read: ViewReads): Promise<unknown[]>;
}

/** What the core hands a view: the caller's farm campaign, the facts the kinds publish of its holding, the clock. */
interface ViewReads {
  readonly farm: FarmIndex;
  /** The facts of a topic stated by records of the holding applied from `since` on, in any campaign. */
  facts(topic: string, since: DateTime): Promise<unknown[]>;
  now(): DateTime;
}

/**
 * The kind's heavy modules, each required on the first call and kept by the module system. Synchronous, so that the
 * OpenAPI document and the tests can list every contract at once; only app.js calls them (start-up's bundle leaves
 * them out, local/build-package.ts).
 */
interface KindModules {
  /** The kind as the records core takes it, with its rules and CUE mapping: what changes and exports its records. */
  kind(): RecordKind<unknown, RecordView, unknown, unknown>;
  /** What reads and lists need, without the rules. */
  reads(): KindReads;
  /** Its HTTP face: what the core builds its seven contracts from. */
  http(): KindHttp;
  /**
   * Its own SIEX catalogues (its folder's `catalogues.ts`), which the catalogue code imports, reads and serves beside
   * the catalog's (shared/app/siex-catalogues.ts); absent for a kind with none of its own.
   */
  catalogues?(): KindCatalogues;
}

/** The SIEX catalogues a kind brings: the files, and what the catalogue endpoint adds to the entries of some. */
export interface KindCatalogues {
  /** By the name the gateway stores and looks each up by (FEGA's file name, or a scope of one). */
  readonly files: Catalogues;
  /** What a record of a code must hold, added to the catalogue endpoint's entries, by catalogue. */
  readonly details?: CatalogueDetails;
}

/** What reading a kind's records takes: its stored format, its answer, its list's filters and key window. */
export interface KindReads {
  /** The format its view writes (the record row's `format` column). */
  readonly format: number;
  /** A stored record of an older format, read as it is meant now. */
  upgrade(record: RecordView, format: number): RecordView;
  /** A stored record as the API answers it, now (RecordKind.answer). */
  answer(record: RecordView, farm: FarmIndex, blockIds: BlockIds | null): unknown;
  /** What its list filters on besides the period, from the list's query as its contract parsed it. */
  listFilter(query: ListQuery): ListFilter<unknown>;
  /**
   * How many days back its key index keeps keys at hand: as far back as a registration may be dated, which for some
   * kinds is the operators' MAX_BACKDATE_DAYS and for others the law's own window.
   */
  keyIndexDays(maxBackdateDays: number): number;
  /**
   * The block keys of a record stored before block ids were kept, in the order it names them (the export's migration
   * of such rows, shared/export/block-ids-migration.ts); absent for a kind that never stored one.
   */
  legacyBlockKeys?(record: RecordView, farm: FarmIndex): string[];
  /** The facts its records state, by topic, that other kinds' rules may read (shared/records/record-facts.ts). */
  readonly publishes?: Readonly<Record<string, Publication>>;
}

/** The record and answer types of an entry's kind, as its `load.kind` gives them (erased for an erased entry). */
type KindOf<E extends KindEntry> = ReturnType<E['load']['kind']>;
export type RecordOf<E extends KindEntry> =
  KindOf<E> extends RecordKind<unknown, infer Rec extends RecordView> ? Rec : RecordView;
export type AnswerOf<E extends KindEntry> =
  KindOf<E> extends RecordKind<unknown, RecordView, unknown, infer Answer> ? Answer : unknown;

/** The query of a kind's list: the farm, the period and pages every list takes, and the kind's own filters. */
type RecordListQuery = ListQuery & { agrifarmId: string };

/** A worked example of one operation, from the demo flow: parameters, request body and the answer. */
export interface OperationExample {
  params?: Record<string, string>;
  query: Record<string, string | number>;
  request?: unknown;
  response: unknown;
}

/** The seven operations the core makes for every kind, in the order its routes and the OpenAPI document list them. */
export const RECORD_OPERATIONS = ['register', 'batch', 'list', 'read', 'amend', 'delete', 'history'] as const;
export type RecordOperation = (typeof RECORD_OPERATIONS)[number];

/**
 * What the HTTP edge needs of a kind beyond what every kind answers alike (shared/http/contracts/record-*.ts): its wire
 * schemas, the texts its operations' descriptions differ by, the error codes its rules may answer, and a worked
 * example of each operation.
 */
export interface KindHttp {
  /** The registration body (named `<urnType>Request` in the document: a batch's items refer to it). */
  readonly request: z.ZodType;
  /** The record as every answer shows it. */
  readonly view: z.ZodType;
  /** An amendment: a JSON Merge Patch of the request's fields. */
  readonly patch: z.ZodType<Record<string, unknown>>;
  /** The list's query, the kind's filters beside what every list takes. */
  readonly listQuery: z.ZodType<RecordListQuery>;
  /** The descriptions of the operations whose rules differ by kind. */
  readonly descriptions: { register: string; list: string; amend: string; delete: string };
  /** What a batch item counts of the items before it, in the batch's description ("the applications of ..."). */
  readonly batchCounts: string;
  /** The codes its registration may answer, and an amendment's (the registration's when absent). */
  readonly errors: { register: readonly ErrorCode[]; amend?: readonly ErrorCode[] };
  readonly examples: Record<RecordOperation, OperationExample>;
}

/**
 * How a kind publishes a topic of facts (shared/records/record-facts.ts): what one of its stored records states. The
 * facts are read from the publication's source: its excerpt of the record when it keeps one, else the record itself.
 */
export interface Publication {
  /**
   * What of a record the facts read, when that is much less than the record: the records core keeps it on the record
   * row as the row is written (so it never drifts from the record) and reads that column alone, which is what keeps
   * a read of a large holding's facts cheap. Only the record's own fields go in it: the farm and the register are
   * applied when the facts are read, as they stand then. `version` names its shape; a row kept under another version,
   * or none, is read whole and excerpted again.
   */
  readonly excerpt?: { readonly version: number; readonly of: (record: RecordView) => unknown };
  /** The facts of the topic one stored record states, from its source, in the farm campaign it is of. */
  facts(source: unknown, farm: FarmIndex, reference: ReferenceData): readonly unknown[];
}
