import { allows, checkMove, MoveOf, MoveTable, TransitionRefused } from '../../shared/domain/state-machine';
import {
  BATCH_TRANSITIONS,
  BatchMove,
  batchStates,
  Job,
  JobBatch,
  RECONCILE_TRANSITIONS,
  ReconcileMove,
  reconcileStates,
  ReconcileState,
  BatchState,
} from '../../shared/export/job';
import { JobRun } from '../../shared/export/job-run';
import { JobStore } from '../../shared/export/job-store';
import {
  acceptedBySiex,
  amended,
  Claim,
  claimed,
  EXPORT_TRANSITIONS,
  ExportKind,
  ExportState,
  forgotten,
  registeredExportState,
} from '../../shared/records/export-state';
import { exportStateColumns, exportStateRow, MAX_SIEX_BODIES_CHARS } from '../../shared/records/export-state-row';

/** What `f` answers, or what it throws. */
function attempt(f: () => unknown): unknown {
  try {
    return f();
  } catch (e) {
    return e;
  }
}

/** Every pair of states: the table's moves pass, every other is refused with a TransitionRefused naming it. */
function walk<S extends string>(machine: string, table: MoveTable<S>, states: readonly S[]): string[] {
  const passed: string[] = [];
  for (const from of states) {
    for (const to of states) {
      const outcome = attempt(() => checkMove(machine, table, from, to));
      if (allows(table, from, to)) {
        expect(outcome).toBeUndefined();
        passed.push(`${from} > ${to}`);
      } else {
        expect(outcome).toBeInstanceOf(TransitionRefused);
        expect(outcome).toMatchObject({ kind: 'transition-refused', machine, from, to });
      }
    }
  }
  return passed;
}

const exportKinds = Object.keys(EXPORT_TRANSITIONS) as ExportKind[];
const claim: Claim = { jobId: 7, at: 1_000, by: 'client-1' };

/** A state of every kind, and of every known state beneath an unknown outcome. */
const samples: ExportState[] = [
  { kind: 'unsent', claim: null },
  { kind: 'unsent', claim },
  { kind: 'exported', claim, siexBlocks: [5, 10_000_000_005] },
  { kind: 'changed', claim, siexBlocks: [5] },
  { kind: 'sent-elsewhere' },
  { kind: 'outcome-unknown', job: 7, known: { kind: 'unsent', claim } },
  { kind: 'outcome-unknown', job: 7, known: { kind: 'exported', claim, siexBlocks: [5] } },
  { kind: 'outcome-unknown', job: 7, known: { kind: 'changed', claim, siexBlocks: [5] } },
];

const label = (s: ExportState) => (s.kind === 'outcome-unknown' ? `outcome-unknown(${s.known.kind})` : s.kind);

describe("a record's export state", () => {
  it('moves only as its table says: every pair of kinds walked', () => {
    expect(walk("a record's export state", EXPORT_TRANSITIONS, exportKinds)).toEqual([
      'unsent > unsent',
      'unsent > exported',
      'unsent > outcome-unknown',
      'exported > unsent',
      'exported > exported',
      'exported > changed',
      'exported > outcome-unknown',
      'changed > unsent',
      'changed > exported',
      'changed > changed',
      'changed > outcome-unknown',
      'sent-elsewhere > sent-elsewhere',
      'outcome-unknown > unsent',
      'outcome-unknown > exported',
      'outcome-unknown > changed',
      'outcome-unknown > outcome-unknown',
    ]);
    const moves: MoveOf<typeof EXPORT_TRANSITIONS>[] = [
      { from: 'exported', to: 'changed' },
      // @ts-expect-error a record sent elsewhere is never sent by the gateway (tsc checks this file before jest runs)
      { from: 'sent-elsewhere', to: 'exported' },
      // @ts-expect-error SIEX cannot hold an older version of a record it never had
      { from: 'unsent', to: 'changed' },
    ];
    expect(moves).toHaveLength(3);
  });

  it('takes each event where the table allows it, and refuses it with a typed error everywhere else', () => {
    const next: Claim = { jobId: 8, at: 2_000, by: 'client-2' };
    const events: Record<string, (s: ExportState) => ExportState> = {
      claimed: (s) => claimed(s, next),
      accepted: (s) => acceptedBySiex(s, [6]),
      amended,
      forgotten,
    };
    const outcomes = Object.fromEntries(
      Object.entries(events).map(([name, event]) => [
        name,
        Object.fromEntries(
          samples.map((s) => {
            const after = attempt(() => event(s));
            const key = s.kind === 'unsent' ? `unsent ${s.claim?.jobId ?? '-'}` : label(s);
            return [key, after instanceof TransitionRefused ? 'refused' : label(after as ExportState)];
          }),
        ),
      ]),
    );
    expect(outcomes).toEqual({
      claimed: {
        'unsent -': 'unsent',
        'unsent 7': 'unsent',
        exported: 'exported',
        changed: 'changed',
        'sent-elsewhere': 'refused',
        'outcome-unknown(unsent)': 'refused',
        'outcome-unknown(exported)': 'refused',
        'outcome-unknown(changed)': 'refused',
      },
      accepted: {
        'unsent -': 'exported',
        'unsent 7': 'exported',
        exported: 'refused',
        changed: 'exported',
        'sent-elsewhere': 'refused',
        'outcome-unknown(unsent)': 'outcome-unknown(exported)',
        'outcome-unknown(exported)': 'refused',
        'outcome-unknown(changed)': 'outcome-unknown(exported)',
      },
      amended: {
        'unsent -': 'unsent',
        'unsent 7': 'unsent',
        exported: 'changed',
        changed: 'changed',
        'sent-elsewhere': 'sent-elsewhere',
        'outcome-unknown(unsent)': 'refused',
        'outcome-unknown(exported)': 'refused',
        'outcome-unknown(changed)': 'refused',
      },
      forgotten: {
        'unsent -': 'unsent',
        'unsent 7': 'unsent',
        exported: 'unsent',
        changed: 'unsent',
        'sent-elsewhere': 'sent-elsewhere',
        'outcome-unknown(unsent)': 'outcome-unknown(unsent)',
        'outcome-unknown(exported)': 'outcome-unknown(unsent)',
        'outcome-unknown(changed)': 'outcome-unknown(unsent)',
      },
    });
    // What each move keeps: the claim moves with the record, the blocks SIEX accepted replace those it held.
    expect(claimed({ kind: 'changed', claim, siexBlocks: [5] }, next)).toEqual({
      kind: 'changed',
      claim: next,
      siexBlocks: [5],
    });
    expect(acceptedBySiex({ kind: 'changed', claim, siexBlocks: [5, 10_000_000_005] }, [5])).toEqual({
      kind: 'exported',
      claim,
      siexBlocks: [5],
    });
    expect(forgotten({ kind: 'exported', claim, siexBlocks: [5] })).toEqual({ kind: 'unsent', claim });
  });

  it('starts unsent, or sent elsewhere for a record registered with exported=1', () => {
    expect([registeredExportState(false), registeredExportState(true)]).toEqual([
      { kind: 'unsent', claim: null },
      { kind: 'sent-elsewhere' },
    ]);
  });
});

describe("a record's export state as its pointer row stores it", () => {
  it('reads back every state as it was written', () => {
    for (const s of samples) expect(exportStateColumns.parse(exportStateRow(s))).toEqual(s);
  });

  it('writes the columns rows have always had, 0 and empty meaning none', () => {
    expect(exportStateRow({ kind: 'unsent', claim: null })).toEqual({
      exported: '0',
      everExported: '0',
      siexBlocks: '[]',
      jobId: 0,
      claimedAt: 0,
      claimedBy: '',
      outcomeUnknownJob: 0,
    });
    expect(
      exportStateRow({ kind: 'outcome-unknown', job: 7, known: { kind: 'changed', claim, siexBlocks: [5] } }),
    ).toEqual({
      exported: '0',
      everExported: '1',
      siexBlocks: '[5]',
      jobId: 7,
      claimedAt: 1_000,
      claimedBy: 'client-1',
      outcomeUnknownJob: 7,
    });
  });

  it('issue 35 item 4: keeps the bodies SIEX accepted through an amendment, and none past the bound', () => {
    const body = { DGCs: [{ CodigoDGC: 4600000007, CodigoCultivo: 102, Superficie: 2.35 }] };
    const accepted = acceptedBySiex({ kind: 'unsent', claim }, [5], { 5: body });
    const stored = exportStateColumns.parse(
      exportStateRow(amended(exportStateColumns.parse(exportStateRow(accepted)))),
    );
    expect(stored).toEqual({ kind: 'changed', claim, siexBlocks: [5], siexBodies: { 5: body } });
    const huge = { 5: { Observaciones: 'x'.repeat(MAX_SIEX_BODIES_CHARS) } };
    expect(exportStateRow(acceptedBySiex({ kind: 'unsent', claim }, [5], huge)).siexBodies).toBe('{}');
    // a row stored before bodies were kept reads with none: its Borrar falls back to a current block
    expect(exportStateColumns.parse({ exported: '0', everExported: '1', siexBlocks: '[5]' })).toEqual({
      kind: 'changed',
      claim: null,
      siexBlocks: [5],
    });
  });

  it('reads rows written before a column existed as they meant', () => {
    const read = (row: Record<string, unknown>) => exportStateColumns.parse(row);
    // Before claims: a record registered, and one registered with exported=1.
    expect(read({ exported: '0' })).toEqual({ kind: 'unsent', claim: null });
    expect(read({ exported: '1' })).toEqual({ kind: 'sent-elsewhere' });
    // Before everExported: exported=1 meant SIEX had it; with blocks the gateway sent, as those blocks.
    expect(read({ exported: '1', siexBlocks: '[5]', jobId: 7, claimedAt: 1_000, claimedBy: 'client-1' })).toEqual({
      kind: 'exported',
      claim,
      siexBlocks: [5],
    });
    // Before siexBlocks: exported by a job, under blocks the gateway no longer knows, so never sent again.
    expect(read({ exported: '1', jobId: 7, claimedAt: 1_000, claimedBy: 'client-1' })).toEqual({
      kind: 'sent-elsewhere',
    });
    // Claimed, then a failed job's outcome unknown.
    expect(read({ exported: '0', jobId: 7, claimedAt: 1_000, claimedBy: 'client-1', outcomeUnknownJob: 7 })).toEqual({
      kind: 'outcome-unknown',
      job: 7,
      known: { kind: 'unsent', claim },
    });
    // Every column, amended after its export: SIEX holds an older version.
    expect(
      read({
        exported: '0',
        everExported: '1',
        siexBlocks: '[5]',
        jobId: 7,
        claimedAt: 1_000,
        claimedBy: 'client-1',
        outcomeUnknownJob: 0,
      }),
    ).toEqual({ kind: 'changed', claim, siexBlocks: [5] });
  });
});

/** A job run over a store that takes every write: what the run refuses, it refuses before writing. */
function runWith(batch: JobBatch | null, reconcile: ReconcileState): { run: JobRun; writes: string[] } {
  const writes: string[] = [];
  const store = {
    saveBatches: async () => void writes.push('batch'),
    updateMeta: async () => void writes.push('meta'),
  } as unknown as JobStore;
  const job = {
    meta: { jobId: 1, status: 'Fallido', reconcile, etag: 'e' },
    items: new Map(),
    batches: batch ? [batch] : [],
  } as unknown as Job;
  return { run: new JobRun(store, job), writes };
}

const batchOf = (state: BatchState): JobBatch => ({
  n: 0,
  key: 'job-1-batch-0',
  requestId: '',
  state,
  records: [{ type: 'AgriPhytosanitary', id: 1 }],
  mayHaveReached: true,
});

describe('a SIEX batch', () => {
  it('moves only as its table says: every pair walked', () => {
    expect(walk('a SIEX batch', BATCH_TRANSITIONS, batchStates)).toEqual([
      'submitting > submitting',
      'submitting > submitted',
      'submitting > done',
      'submitted > done',
    ]);
    // @ts-expect-error a done batch is never sent again
    const back: BatchMove = { from: 'done', to: 'submitting' };
    expect(back.from).toBe('done');
  });

  it('is moved by a job run only from the state it is in, every move walked from every state', async () => {
    const moves = batchStates.flatMap((from) => BATCH_TRANSITIONS[from].map((to) => ({ from, to }) as BatchMove));
    for (const state of batchStates) {
      for (const move of moves) {
        const { run, writes } = runWith(batchOf(state), 'none');
        const outcome = await run.moveBatch(0, move, { requestId: 'r' }).catch((e: unknown) => e);
        if (move.from === state) {
          expect(outcome).toMatchObject({ state: move.to, requestId: 'r' });
          expect(run.batches[0]).toEqual(outcome);
          expect(writes).toEqual(['batch']);
        } else {
          expect(outcome).toBeInstanceOf(TransitionRefused);
          expect(writes).toEqual([]);
        }
      }
    }
  });

  it('is added only as submitting, under a number the job has not used', async () => {
    const { run, writes } = runWith(batchOf('done'), 'none');
    await expect(run.addBatches([{ ...batchOf('submitting'), n: 0 }])).rejects.toBeInstanceOf(TransitionRefused);
    await expect(run.addBatches([{ ...batchOf('submitted'), n: 1 }])).rejects.toBeInstanceOf(TransitionRefused);
    await run.addBatches([{ ...batchOf('submitting'), n: 1 }]);
    expect([writes, run.batches.map((b) => b.n)]).toEqual([['batch'], [0, 1]]);
  });
});

describe("a job's reconciliation of unknown outcomes", () => {
  it('moves only as its table says: every pair walked', () => {
    expect(walk("a job's reconciliation of unknown outcomes", RECONCILE_TRANSITIONS, reconcileStates)).toEqual([
      'none > pending',
      'pending > resolved',
      'resolved > told',
    ]);
    // @ts-expect-error the e-mail saying every outcome is known goes once
    const again: ReconcileMove = { from: 'told', to: 'resolved' };
    expect(again.to).toBe('resolved');
  });

  it('is moved by a job run only from the state it is in, every move walked from every state', async () => {
    const moves = reconcileStates.flatMap((from) =>
      RECONCILE_TRANSITIONS[from].map((to) => ({ from, to }) as ReconcileMove),
    );
    for (const state of reconcileStates) {
      for (const move of moves) {
        const { run, writes } = runWith(null, state);
        const outcome = await run.update({ reconcile: move }).catch((e: unknown) => e);
        if (move.from === state) {
          expect([outcome, run.state.reconcile, writes]).toEqual([undefined, move.to, ['meta']]);
        } else {
          expect(outcome).toBeInstanceOf(TransitionRefused);
          expect([run.state.reconcile, writes]).toEqual([state, []]);
        }
      }
    }
  });
});
