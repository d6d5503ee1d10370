import { checkMove, MoveTable, TransitionRefused } from '../domain/state-machine';

/**
 * The export job that last took a record for SIEX. It holds the record while that job has not settled, which the
 * job's status row says, not the record: a job that settles writes only to the records SIEX accepted, so a claim
 * lapses without a write (docs/architecture.md, "Export pipeline").
 */
export interface Claim {
  jobId: number;
  /** Epoch ms: a claim by a job that was never created holds the record only for a grace period. */
  at: number;
  /** The client whose request the job was: an abandoned start is still that client's job. */
  by: string;
}

/** What the gateway knows of a record's copy in SIEX, and the job that last took the record. */
export type KnownExportState =
  /** SIEX has no copy from the gateway: never sent, or its deletion there was accepted. */
  | { kind: 'unsent'; claim: Claim | null }
  /**
   * SIEX holds the record as it is now, as these blocks (the IdAjena of each, as the kind's blocks are keyed, FEGA's
   * CUE field descriptor): a deletion sends `Borrar` for each of them.
   */
  | { kind: 'exported'; claim: Claim | null; siexBlocks: number[]; siexBodies?: SiexBodies }
  /**
   * Amended since SIEX took it: SIEX holds an earlier version as these blocks. The next export replaces them under the
   * same IdAjena and sends `Borrar` for those the record no longer has.
   */
  | { kind: 'changed'; claim: Claim | null; siexBlocks: number[]; siexBodies?: SiexBodies };

/**
 * Each block SIEX holds, as SIEX accepted it, by IdAjena: what its `Borrar` must name (cue-blocks.ts, `KeptBodies`).
 * Absent or partial for a record accepted before bodies were kept, or whose bodies passed the row's bound.
 */
export type SiexBodies = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

/** A record's export life, one named state at a time. */
export type ExportState =
  | KnownExportState
  /**
   * Registered with `exported=1`: SIEX has it under an IdAjena the gateway does not know, so the gateway never sends
   * it, neither to replace it nor to delete it.
   */
  | { kind: 'sent-elsewhere' }
  /**
   * Job `job` sent the record to SIEX and never learnt whether SIEX took it (`known` is what the gateway knows
   * besides): no export, amendment or deletion until the outcome is learnt or support releases it.
   */
  | { kind: 'outcome-unknown'; job: number; known: KnownExportState };

export type ExportKind = ExportState['kind'];

/**
 * Every kind a record's export state may move to from each. A claim keeps the kind (an export takes an unsent or a
 * changed record, a deletion an exported or a changed one); SIEX accepting an export makes it exported, accepting a
 * deletion unsent; an amendment makes an exported record changed; a job that fails after sending makes it
 * outcome-unknown, and learning the outcome (or support's release) gives back the known state. A record sent
 * elsewhere never moves; nothing but registration makes one.
 */
export const EXPORT_TRANSITIONS = {
  unsent: ['unsent', 'exported', 'outcome-unknown'],
  exported: ['exported', 'changed', 'unsent', 'outcome-unknown'],
  changed: ['changed', 'exported', 'unsent', 'outcome-unknown'],
  'sent-elsewhere': ['sent-elsewhere'],
  'outcome-unknown': ['outcome-unknown', 'unsent', 'exported', 'changed'],
} as const satisfies MoveTable<ExportKind>;

const MACHINE = "a record's export state";

/** `to`, once the table allows the move from `from` (and, while the outcome is unknown, the move of what is known). */
function moved(from: ExportState, to: ExportState): ExportState {
  checkMove(MACHINE, EXPORT_TRANSITIONS, from.kind, to.kind);
  if (from.kind === 'outcome-unknown' && to.kind === 'outcome-unknown')
    checkMove(MACHINE, EXPORT_TRANSITIONS, from.known.kind, to.known.kind);
  return to;
}

/** A new record's state: `exported=1` at registration means SIEX was told by other means. */
export function registeredExportState(sentElsewhere: boolean): ExportState {
  return sentElsewhere ? { kind: 'sent-elsewhere' } : { kind: 'unsent', claim: null };
}

/** The claim that may still hold the record (none while its outcome is unknown: that job has settled). */
export function claimOf(state: ExportState): Claim | null {
  return state.kind === 'sent-elsewhere' || state.kind === 'outcome-unknown' ? null : state.claim;
}

/** The blocks SIEX holds of the record from the gateway (none when it holds none, or the gateway does not know them). */
export function siexBlocksOf(state: ExportState): number[] {
  const known = state.kind === 'outcome-unknown' ? state.known : state;
  return known.kind === 'exported' || known.kind === 'changed' ? known.siexBlocks : [];
}

/** Whether SIEX holds the record as it is now: the record's `exported` flag. */
export function isExported(state: ExportState): boolean {
  const known = state.kind === 'outcome-unknown' ? state.known : state;
  return known.kind === 'exported' || known.kind === 'sent-elsewhere';
}

/** Whether SIEX was ever told of the record: its next acceptance is a re-export. */
export function siexWasTold(state: ExportState): boolean {
  const known = state.kind === 'outcome-unknown' ? state.known : state;
  return known.kind !== 'unsent';
}

/** Whether SIEX holds blocks the gateway sent: the record's deletion must go through SIEX first. */
export function heldBySiex(state: ExportState): state is Extract<ExportState, { kind: 'exported' | 'changed' }> {
  return state.kind === 'exported' || state.kind === 'changed';
}

/** Taken by export job `claim.jobId`: for an export, an unsent or changed record; for a deletion, one SIEX holds. */
export function claimed(state: ExportState, claim: Claim): ExportState {
  if (state.kind === 'sent-elsewhere' || state.kind === 'outcome-unknown')
    throw new TransitionRefused(MACHINE, state.kind, `claimed by job ${claim.jobId}`);
  return moved(state, { ...state, claim });
}

/** `siexBodies` when any is kept: a state with none reads as states always have. */
export const keptBodies = (siexBodies: SiexBodies): { siexBodies?: SiexBodies } =>
  Object.keys(siexBodies).length > 0 ? { siexBodies } : {};

/** The blocks SIEX holds of the record as it accepted them, by IdAjena (empty when not kept). */
export function siexBodiesOf(state: ExportState): SiexBodies {
  const known = state.kind === 'outcome-unknown' ? state.known : state;
  return (known.kind === 'exported' || known.kind === 'changed' ? known.siexBodies : undefined) ?? {};
}

/**
 * SIEX accepted an export of the record, which it now holds as `siexBlocks` (learnt later, if it was unknown), each
 * with the body it was sent with (`siexBodies`), which a later `Borrar` of that block repeats.
 */
export function acceptedBySiex(state: ExportState, siexBlocks: number[], siexBodies?: SiexBodies): ExportState {
  const exported = (known: KnownExportState): KnownExportState => {
    if (known.kind === 'exported') throw new TransitionRefused(MACHINE, known.kind, 'accepted again');
    return { kind: 'exported', claim: known.claim, siexBlocks, ...(siexBodies ? { siexBodies } : {}) };
  };
  if (state.kind === 'sent-elsewhere') throw new TransitionRefused(MACHINE, state.kind, 'accepted');
  return moved(state, state.kind === 'outcome-unknown' ? { ...state, known: exported(state.known) } : exported(state));
}

/** The record was amended: a copy SIEX holds no longer says what the record says, except one sent elsewhere. */
export function amended(state: ExportState): ExportState {
  if (state.kind === 'outcome-unknown') throw new TransitionRefused(MACHINE, state.kind, 'amended');
  return state.kind === 'exported' ? moved(state, { ...state, kind: 'changed' }) : state;
}

/** SIEX no longer holds what the gateway sent of the record: its deletion there was accepted (or it never had any). */
export function forgotten(state: ExportState): ExportState {
  const unsent = (known: KnownExportState): KnownExportState =>
    known.kind === 'unsent' ? known : { kind: 'unsent', claim: known.claim };
  if (state.kind === 'sent-elsewhere') return state;
  return moved(state, state.kind === 'outcome-unknown' ? { ...state, known: unsent(state.known) } : unsent(state));
}
