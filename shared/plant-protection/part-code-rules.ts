import { CodeCheck } from '../catalog/siex-codes/code-check';
import { PEST_CATALOGUE, SiexCodes } from '../catalog/siex-codes/siex-codes';
import { Violation, violation } from '../domain/errors';
import { Amount, PassPart, Pest, Unit } from './product-part';

/**
 * The product part's codes are codes of the official catalogues in force on the application day (FEGA, Anexo VII):
 * the pest of the pass and of each mixed product (ENFERMEDADES, PLAGAS, MALAS_HIERBAS, REGULADORES_CRECIMIENTO), the
 * justifications (JUSTIFICACION_ACTUACION), the efficacy (EFICACIA_TRATAMIENTO), the units of the total amounts
 * (UNIDADES_MEDIDA, written with their own symbols) and each machine's UNE type (TIPO_MAQUINA_UNE).
 */
export function partCodeRules(t: PassPart, check: CodeCheck): void {
  const checkInfection = (infection: Pest | null, at: string) => {
    if (infection) check.code(PEST_CATALOGUE[infection.kind], infection.code, `${at}.infection.id`);
  };
  const checkUnit = (amount: Amount | null, path: string) => check.measure(amount?.unit, path);
  checkInfection(t.infection, 'body');
  t.justifications?.forEach((j, i) => check.code('JUSTIFICACION_ACTUACION', j.code, `body.tj[${i}].id`));
  if (t.efficacy) check.code('EFICACIA_TRATAMIENTO', t.efficacy.code, 'body.efficacy.id');
  checkUnit(t.product?.total ?? null, 'body.mdt');
  t.mix.forEach((item, i) => {
    checkInfection(item.infection, `body.mix[${i}]`);
    checkUnit(item.total, `body.mix[${i}].mdt`);
  });
  t.machines?.forEach((m, i) => check.code('TIPO_MAQUINA_UNE', m.une, `body.machine[${i}].id`));
}

/**
 * What was treated (produce, seed) is weighed: the blocks' `Cantidad` is in kilograms (FEGA's Anexo V: "unidades
 * válidas: kg"), which a volume or a count cannot be turned into. `what` names it in the message; a unit not in the
 * catalogue is the code check's to report.
 */
export function weighedRules(codes: SiexCodes, unit: Unit, path: string, what: string): Violation[] {
  const known = codes.units.get(unit.code);
  if (!known || (known.dimension?.measure === 'mass' && known.dimension.per === null)) return [];
  return [
    violation(
      'TREATED_QUANTITY_UNIT',
      path,
      `${what} is weighed (kg, t): SIEX takes it in kilograms, not ${unit.symbol}`,
    ),
  ];
}
