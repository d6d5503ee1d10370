import { parseAnyUrn } from '../domain/urn';
import { FarmIndex } from '../farms/farm-index';
import { CueKindMapping, RecordKind } from '../records/record-kind';
import { RecordKeyIndex } from '../records/record-key-index';
import { ExportMarks } from '../records/export-marks';
import { RecordPointer, RecordView } from '../records/record-rows';
import { RecordStore } from '../records/record-store';
import type { IdSource } from '../store/counters';
import { RecordRef } from './record-ref';

/**
 * A record kind as the export pipeline takes it: what the port says of it (its URN type, its name, its CUE blocks),
 * where its records are, and the two things the pipeline asks of the kind's own services. Adding a kind to the export
 * is adding one of these to the registry (shared/app/record-kinds.ts); the pipeline names no kind.
 */
export interface ExportKind<Rec extends RecordView = RecordView> {
  readonly urnType: string;
  readonly label: string;
  readonly cue: CueKindMapping<Rec>;
  /** What the export reads of the kind's records (its records-core store). */
  readonly store: Pick<RecordStore<unknown, Rec>, 'readPointers' | 'readRecords'>;
  /** What the export writes on them: block ids, claims, unknown outcomes, acceptance. */
  readonly marks: ExportMarks<Rec>;
  /** The farm's record keys, mostly from memory: which ids exist costs one query, whatever the request names. */
  readonly keys: Pick<RecordKeyIndex, 'keys'>;
  /** The kind's id counter, which the IdAjena of its blocks come from too. */
  readonly ids: IdSource;
  /**
   * The block keys of a record stored before block ids were kept, in the order it names them (its migration to
   * 10-digit ids, block-ids-migration.ts); absent for a kind that never stored a record without them.
   */
  legacyBlockKeys?(record: Rec, farm: FarmIndex): string[];
  /**
   * Deletes here records whose deletion SIEX accepted (a deletion job's outcome), each as the kind's own deletion
   * does (its history rows no longer count it); applied once, so a redelivered job deletes nothing twice.
   */
  deleteAccepted(
    farm: FarmIndex,
    ids: readonly number[],
    by: { client: string; at: string; jobId: number },
  ): Promise<void>;
}

/** A record a job takes: its kind (URN type), and its pointer as checked. */
export interface TakenRecord {
  type: string;
  pointer: RecordPointer;
}

/** The port's part the export takes from a kind. */
type ExportedKind<Rec> = Pick<RecordKind<unknown, Rec>, 'urnType' | 'label' | 'cue'>;

/**
 * A kind for the registry, its record type checked once here and forgotten by the pipeline; the export's marks are
 * written in the kind's own table.
 */
export function exportKind<Rec extends RecordView>(
  kind: ExportedKind<Rec>,
  parts: Omit<ExportKind<Rec>, 'urnType' | 'label' | 'cue' | 'store' | 'marks'> & { store: RecordStore<unknown, Rec> },
): ExportKind {
  return { urnType: kind.urnType, label: kind.label, cue: kind.cue, marks: new ExportMarks(parts.store), ...parts };
}

/** The record kinds the gateway exports, by the type of their URNs. */
export class ExportKinds {
  private readonly byType: ReadonlyMap<string, ExportKind>;

  constructor(kinds: readonly ExportKind[]) {
    this.byType = new Map(kinds.map((k) => [k.urnType, k]));
  }

  /** Every kind, in the order the registry was given them (the order of a job's sections and counts). */
  all(): readonly ExportKind[] {
    return [...this.byType.values()];
  }

  /** The kind of a job's record; a type no kind has means a job row of a kind this gateway no longer has: a bug. */
  of(type: string): ExportKind {
    const kind = this.byType.get(type);
    if (!kind) throw new Error(`no record kind has URN type ${type}`);
    return kind;
  }

  /** The record a URN names, when it is a URN of a kind the export takes. */
  parse(urn: string): RecordRef | null {
    const parsed = parseAnyUrn(urn);
    return parsed && this.byType.has(parsed.type) ? { type: parsed.type, id: parsed.n } : null;
  }

  /** The URNs an export body may name, for people: one per kind (`urn:ngsi-ld:AgriExample:<n>`). */
  expected(): string {
    return this.all()
      .map((k) => `urn:ngsi-ld:${k.urnType}:<n>`)
      .join(' or ');
  }
}
