import { DateTime } from 'luxon';
import { StoredApplicator } from '../catalog/catalog-store';
import { parseDate } from '../domain/dates';
import { isValidPersonalNif, normalizeNif } from '../domain/nif';

/**
 * The card when `nif` is its holder's; otherwise nothing, alike whether no card has that number or another person
 * holds it. A caller who does not know a card's holder learns neither that the card exists nor its state: the
 * registration answers like the catalogue's card look-up (issue 23, "no oracle").
 */
export function holdersCard(card: StoredApplicator | undefined, nif: string): StoredApplicator | undefined {
  return card && isValidPersonalNif(nif) && normalizeNif(nif) === normalizeNif(card.nif) ? card : undefined;
}

/** Why a card could not be used at a time. */
export type CardLapse = { reason: 'suspended' } | { reason: 'expired'; lastDay: string };

/**
 * What keeps a card from being in force at `at` (Madrid): a suspension, or a time after its last valid day, which is
 * itself in force to its end. Empty when in force.
 */
export function cardLapses(card: StoredApplicator, at: DateTime): CardLapse[] {
  const lapses: CardLapse[] = [];
  if (card.suspended) lapses.push({ reason: 'suspended' });
  if (at > parseDate(card.validUntil)!.endOf('day')) lapses.push({ reason: 'expired', lastDay: card.validUntil });
  return lapses;
}

export function describeLapse(ropo: string, lapse: CardLapse): string {
  return lapse.reason === 'suspended' ? `ROPO ${ropo} is suspended` : `ROPO ${ropo} expired on ${lapse.lastDay}`;
}
