/**
 * A kind's wire mapping while its wire request has exactly the fields the kind keeps of a request (its stored request
 * or record fields): one mapping serves both. The parse is what makes any body the typed wire form (with zod's
 * defaults) whatever the caller, where a cast would trust it blindly. The types are tied both ways: the day either side
 * gains or loses a field, the kind's call no longer compiles (`SameShape` asks for an argument no one can give), and
 * its wire-mapper.ts maps the wire on its own.
 */
type SameShape<Wire, Kept> = [Wire] extends [Kept]
  ? [Kept] extends [Wire]
    ? []
    : [kindKeepsWhatTheWireLacks: never]
  : [wireHasWhatTheKindDoesNotKeep: never];

export interface SameShapeWire<Wire, Value> {
  /** Any body as the domain value. */
  readonly fromWire: (body: unknown) => Value;
  /** Back to the wire, for an amendment's merge patch and a record's history: what `fromWire` reads. */
  readonly toWire: (value: Value) => Wire;
}

export function sameShapeWire<Wire, Kept, Value>(
  schema: { parse(body: unknown): Wire },
  valueOf: (kept: Kept) => Value,
  keptOf: (value: Value) => Kept,
  ...sameShape: SameShape<Wire, Kept>
): SameShapeWire<Wire, Value> {
  void sameShape;
  return {
    // Sound by SameShape: Wire and Kept are assignable to each other.
    fromWire: (body) => valueOf(schema.parse(body) as unknown as Kept),
    toWire: (value) => keptOf(value) as unknown as Wire,
  };
}

/** A stored record as the API answers it, with what an export would refuse of it now (`blockers`). */
export function withExportability<Rec, Blocker>(
  record: Rec,
  blockers: Blocker[],
): Rec & { exportable: boolean; exportBlockers: Blocker[] } {
  return { ...record, exportable: blockers.length === 0, exportBlockers: blockers };
}
