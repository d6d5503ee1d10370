/**
 * A state machine's moves as one table: for each named state, the states it may move to. Where code asks for a
 * `MoveOf<table>`, a move the table does not list does not compile; where the move is only known at run time,
 * `checkMove` refuses it with a `TransitionRefused`. Export jobs, the records' export states, SIEX batches and the
 * reconciliation of unknown outcomes each have one (docs/architecture.md, "Export pipeline").
 */
export type MoveTable<S extends string> = { readonly [F in S]: readonly S[] };

/** Every move of a table, as `{ from, to }`: `{ from: 'done', to: 'submitting' }` does not type unless listed. */
export type MoveOf<T extends MoveTable<string>> = {
  [F in keyof T & string]: { from: F; to: T[F][number] };
}[keyof T & string];

/**
 * A move the table does not list, or an event a state does not take (`to` names what was asked): a bug in the caller,
 * never a race (ETags catch those).
 */
export class TransitionRefused extends Error {
  readonly kind = 'transition-refused';
  constructor(
    readonly machine: string,
    readonly from: string,
    readonly to: string,
  ) {
    super(`${machine} cannot move from ${from} to ${to}`);
    this.name = 'TransitionRefused';
  }
}

/** Whether the table lists the move. */
export function allows<S extends string>(table: MoveTable<S>, from: S, to: S): boolean {
  return table[from].includes(to);
}

/** Passes a move the table lists; refuses any other with TransitionRefused. */
export function checkMove<S extends string>(machine: string, table: MoveTable<S>, from: S, to: S): void {
  if (!allows(table, from, to)) throw new TransitionRefused(machine, from, to);
}
