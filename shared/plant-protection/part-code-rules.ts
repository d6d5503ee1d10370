import { CodeCheck } from '../catalog/siex-codes/code-check';
import { PEST_CATALOGUE } from '../catalog/siex-codes/siex-codes';
import { Amount, PassPart, Pest } from './product-part';

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
