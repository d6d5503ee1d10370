import { descriptorProblems } from '../../shared/siex/cue-descriptor';

/**
 * Every value of a CUE document checked against the descriptor table, but one known gap: issue 23 item 2 (another
 * engineer's branch) gives every block an IdAjena of at most 10 digits. Until it is merged, the further blocks of a
 * multi-crop record are k × 10^10 + the record id, which the table rightly refuses (number(10)); only that problem is
 * left out here, and only for such ids. Once item 2 is in, this filter lets nothing through and should go.
 */
export function descriptorProblemsBesidesItem2(doc: unknown): string[] {
  return descriptorProblems(doc).filter(
    (p) => !/\.IdAjenaTratamFito \(IdAjenaTratamFito\): [1-9]\d{10} has more than 10 digits$/.test(p),
  );
}
