import { DateTime } from 'luxon';
import { CodeCheck } from '../catalog/siex-codes/code-check';
import { SiexCodes } from '../catalog/siex-codes/siex-codes';
import { Violation } from '../domain/errors';
import { Irrigation } from './irrigation';

/**
 * Every code of an irrigation is one of its SIEX catalogue in force on its first day (RD 1051/2022 art. 5, the codes of
 * CUE `Riego`). Good practices are read in their "Riego" scope only (RD 1051/2022 Anexo IX is codes 21 to 27 there): a
 * practice of fertilization or of plant protection alone is refused as not being a code of that scope.
 */
export function irrigationCodeRules(i: Irrigation, codes: SiexCodes, on: DateTime): Violation[] {
  const check = new CodeCheck(codes, on, { BUENAS_PRACTICAS_RIEGO: 'BUENAS_PRACTICAS_AMBITOS (scope Riego)' });
  check.code('SIST_RIEGO', i.system, 'body.system.id');
  check.measure(i.unit, 'body.measure');
  i.waterOrigins.forEach((o, n) => check.code('ORIGEN_AGUA_RIEGO', o, `body.waterOrigins[${n}].id`));
  if (i.energy !== null) check.code('TIPENERGIA', i.energy, 'body.energy.id');
  i.goodPractices.forEach((g, n) => check.code('BUENAS_PRACTICAS_RIEGO', g, `body.goodPractices[${n}].id`));
  return check.violations;
}
