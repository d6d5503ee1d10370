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
  if (ctx.product && !levelCovers(card.levels, ctx.product.requiredLevel)) {
    out.push(
      violation(
        'ROPO_LEVEL_INSUFFICIENT',
        `${AT}.ropo`,
        `${ctx.product.code} requires a ${ctx.product.requiredLevel} card; ROPO ${ropo} holds ${card.levels.join(', ')}`,
      ),
    );
  }
  return out;
}
