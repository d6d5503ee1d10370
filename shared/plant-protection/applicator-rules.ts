import { StoredProduct } from '../catalog/catalog-store';
import { levelCovers } from '../domain/ropo';
import { isValidPersonalNif } from '../domain/nif';
import { Violation, violation } from '../domain/errors';
import { PartContext } from './product-part';
import { cardLapses, describeLapse, holdersCard } from './ropo-card';

const AT = 'body.applicator.user';

/**
 * The one answer for a card that is unknown or not the NIF's holder's: the same code, path and message whatever the
 * card (the number is not even echoed), so that bodies are byte-identical.
 */
const notRecognised = (): Violation =>
  violation('APPLICATOR_NOT_RECOGNISED', AT, 'no registered ROPO card has both that number and that NIF');

/**
 * The applicator's ROPO card (RD 1311/2012, art. 18): its NIF its holder's, then valid on the application day, not
 * suspended, level enough for the product. Its state is judged only for its holder's NIF; an invalid NIF is no
 * holder's, and is reported alone.
 */
export function applicatorRules(ctx: PartContext): Violation[] {
  const { nif, ropo } = ctx.treatment.applicator;
  if (!isValidPersonalNif(nif)) {
    return [violation('NIF_INVALID', `${AT}.nif`, `${nif} is not a valid NIF/NIE (control letter)`)];
  }
  const card = holdersCard(ctx.applicator, nif);
  if (!card) return [notRecognised()];
  const out = cardLapses(card, ctx.appliedAt).map((lapse) =>
    violation(
      lapse.reason === 'suspended' ? 'ROPO_SUSPENDED' : 'ROPO_EXPIRED',
      `${AT}.ropo`,
      describeLapse(ropo, lapse),
    ),
  );
  if (ctx.product) out.push(...cardLevelRules(ctx, ctx.product, `${AT}.ropo`));
  return out;
}

/**
 * The card's level covers what the product requires (RD 1311/2012, art. 18): checked for every product of a pass,
 * the main one here and each mixed one with the product rules, `path` saying which. No card: nothing to compare.
 */
export function cardLevelRules(ctx: PartContext, product: StoredProduct, path: string): Violation[] {
  const { nif, ropo } = ctx.treatment.applicator;
  // A card's levels are told only to a caller who gave its holder's NIF (no card oracle, applicatorRules).
  const card = isValidPersonalNif(nif) ? holdersCard(ctx.applicator, nif) : undefined;
  if (!card || levelCovers(card.levels, product.requiredLevel)) return [];
  return [
    violation(
      'ROPO_LEVEL_INSUFFICIENT',
      path,
      `${product.code} requires a ${product.requiredLevel} card; ROPO ${ropo} holds ${card.levels.join(', ')}`,
    ),
  ];
}
