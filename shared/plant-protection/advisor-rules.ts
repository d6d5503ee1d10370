import { isValidPersonalNif } from '../domain/nif';
import { isAdvisorCard } from '../domain/ropo';
import { Violation, violation } from '../domain/errors';
import { PartContext } from './product-part';
import { cardLapses, describeLapse, holdersCard } from './ropo-card';

const AT = 'body.advisor';

/** JUSTIFICACION_ACTUACION code 5, "Recomendación de asesor" (data/siex/catalogues/JUSTIFICACION_ACTUACION.csv). */
export const ADVISOR_RECOMMENDATION = '5';

/** One answer, byte for byte, for every advisor card that cannot be told apart from an unknown one. */
const notRecognised = (): Violation =>
  violation(
    'ADVISOR_NOT_RECOGNISED',
    `${AT}.ropo`,
    'no registered advisor card in force on the application date has that number (and that NIF, when given)',
  );

/**
 * The advisor who validated or recommended the treatment must be entered in ROPO as an advisor (RD 1311/2012, arts.
 * 11 and 12): the card exists, is in force on the application day (not suspended, not past its last valid day) and
 * holds the advisor registration. A treatment justified by an advisor's recommendation names its advisor.
 *
 * The card's state is told only to a caller who gives its holder's NIF (`advisor.nif`), as for the applicator. With
 * the number alone, every failure is the one ADVISOR_NOT_RECOGNISED: the answer then says only whether that number is
 * an advisor card in force on that day, which is what the check itself has to decide, and nothing of why not.
 */
export function advisorRules(ctx: PartContext): Violation[] {
  const { advisor, justifications } = ctx.treatment;
  if (!advisor) {
    const at = (justifications ?? []).findIndex((t) => t.code === ADVISOR_RECOMMENDATION);
    if (at < 0) return [];
    return [
      violation(
        'ADVISOR_REQUIRED',
        `body.tj[${at}]`,
        `justification ${ADVISOR_RECOMMENDATION} is an advisor's recommendation: the record must name the advisor (advisor.ropo)`,
      ),
    ];
  }
  if (advisor.nif === null) {
    const card = ctx.advisor;
    const inForce = card && isAdvisorCard(card) && cardLapses(card, ctx.appliedAt).length === 0;
    return inForce ? [] : [notRecognised()];
  }
  if (!isValidPersonalNif(advisor.nif)) {
    return [violation('NIF_INVALID', `${AT}.nif`, `${advisor.nif} is not a valid NIF/NIE (control letter)`)];
  }
  const card = holdersCard(ctx.advisor, advisor.nif);
  if (!card) return [notRecognised()];
  const out = cardLapses(card, ctx.appliedAt).map((lapse) =>
    violation('ADVISOR_NOT_IN_FORCE', `${AT}.ropo`, describeLapse(advisor.ropo, lapse)),
  );
  if (!isAdvisorCard(card)) {
    out.push(
      violation(
        'ADVISOR_NOT_REGISTERED',
        `${AT}.ropo`,
        `ROPO ${advisor.ropo} holds no advisor registration (asesor), only ${card.levels.join(', ')}`,
      ),
    );
  }
  return out;
}
