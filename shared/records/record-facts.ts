import type { DateTime } from 'luxon';
import type { ReferenceData } from '../catalog/reference-data';
import type { FarmIndex } from '../farms/farm-index';

/**
 * Facts one record kind's records state that another kind's rules read, carried by the core so that neither kind
 * names the other (no kind imports another's folder). A fact belongs to a topic, a kind-free module that defines its
 * shape and what it means (a module of `shared/rules/`: docs/architecture.md, "Facts between kinds", names them):
 * - a kind publishes a topic from its read side (`KindReads.publishes`, shared/records/kind-entry.ts): the facts each of its stored records states,
 *   given the farm campaign the record is of and the reference data;
 * - a kind reads a topic through its port (`RecordKind.facts`): the core collects the facts every publishing kind's
 *   records of the holding state, in every campaign, applied from the day the reader asks (`since`), once per attempt,
 *   and hands them to its `judge` with the reference data.
 * A fact is plain data, read from the records as they are stored: it is never written, so nothing drifts from them.
 * What a fact is made of may be: a publication's excerpt of its record (kind-entry.ts, `Publication.excerpt`) is
 * written on the record row with the record, in the same write, and read in its place.
 */

/** What a kind's rules read of a topic: the facts of records applied from `since` (Madrid) on. */
export interface FactNeed<Request> {
  readonly topic: string;
  since(request: Request): DateTime;
}

/** Where the core reads a topic's facts from: every publishing kind's records of the farm's holding. */
export interface FactSource {
  read(farm: FarmIndex, topic: string, since: DateTime, reference: ReferenceData): Promise<unknown[]>;
}
