import { levelCovers } from '../domain/ropo';
import { isValidPersonalNif } from '../domain/nif';
import { Violation, violation } from '../domain/errors';
import { RuleContext } from './rule-context';
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
export function applicatorRules(ctx: RuleContext): Violation[] {
  const { nif, ropo } = ctx.request.applicator.user;
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
