import { StoredProduct } from '../catalog/catalog-store';
import { levelCovers } from '../domain/ropo';
import { parseDate } from '../domain/dates';
import { isValidPersonalNif, normalizeNif } from '../domain/nif';
import { Violation, violation } from '../domain/errors';
import { RuleContext } from './rule-context';

const AT = 'body.applicator.user';

/** ROPO card known, valid on the application day, not suspended, level enough for the product, NIF its holder's. */
export function applicatorRules(ctx: RuleContext): Violation[] {
  const { nif, ropo } = ctx.request.applicator.user;
  const out: Violation[] = [];
  if (!isValidPersonalNif(nif))
    out.push(violation('NIF_INVALID', `${AT}.nif`, `${nif} is not a valid NIF/NIE (control letter)`));
  const card = ctx.applicator;
  if (!card) {
    out.push(violation('ROPO_NOT_FOUND', `${AT}.ropo`, `${ropo} is not a registered applicator`));
    return out;
  }
  if (isValidPersonalNif(nif) && normalizeNif(nif) !== normalizeNif(card.nif)) {
    out.push(violation('NIF_MISMATCH', `${AT}.nif`, `${nif} is not the holder of ROPO ${ropo}`));
  }
  if (card.suspended) out.push(violation('ROPO_SUSPENDED', `${AT}.ropo`, `ROPO ${ropo} is suspended`));
  const validUntil = parseDate(card.validUntil)!.endOf('day');
  if (ctx.appliedAt > validUntil) {
    out.push(violation('ROPO_EXPIRED', `${AT}.ropo`, `ROPO ${ropo} expired on ${card.validUntil}`));
  }
  if (ctx.product) out.push(...cardLevelRules(ctx, ctx.product, `${AT}.ropo`));
  return out;
}

/**
 * The card's level covers what the product requires (RD 1311/2012, art. 18): checked for every product of a pass,
 * the main one here and each mixed one with the product rules, `path` saying which. No card: nothing to compare.
 */
export function cardLevelRules(ctx: RuleContext, product: StoredProduct, path: string): Violation[] {
  const card = ctx.applicator;
  if (!card || levelCovers(card.levels, product.requiredLevel)) return [];
  const { ropo } = ctx.request.applicator.user;
  return [
    violation(
      'ROPO_LEVEL_INSUFFICIENT',
      path,
      `${product.code} requires a ${product.requiredLevel} card; ROPO ${ropo} holds ${card.levels.join(', ')}`,
    ),
  ];
}
