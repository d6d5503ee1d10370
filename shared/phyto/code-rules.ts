import { CodeCheck } from '../catalog/siex-codes/code-check';
import { PEST_CATALOGUE } from '../catalog/siex-codes/siex-codes';
import { Violation } from '../domain/errors';
import { RuleContext } from './rule-context';
import { Amount, Pest } from '../plant-protection/product-part';

/**
 * The optional SIEX fields carry codes of the official catalogues, in force on the application date: the infection,
 * justifications, efficacy, the units of the total amount and of the treated area (written with their own symbols),
 * each machine's UNE type and the phenological stage; of each mixed product, its own pest and total amount unit.
 */
export function codeRules(ctx: RuleContext): Violation[] {
  const { treatment: t } = ctx;
  const check = new CodeCheck(ctx.codes, ctx.appliedAt);
  const checkInfection = (infection: Pest | null, at: string) => {
    if (infection) check.code(PEST_CATALOGUE[infection.kind], infection.code, `${at}.infection.id`);
  };
  const checkUnit = (amount: Amount | null, path: string) => check.measure(amount?.unit, path);
  checkInfection(t.infection, 'body');
  t.justifications?.forEach((j, i) => check.code('JUSTIFICACION_ACTUACION', j.code, `body.tj[${i}].id`));
  if (t.efficacy) check.code('EFICACIA_TRATAMIENTO', t.efficacy.code, 'body.efficacy.id');
  checkUnit(t.product.total, 'body.mdt');
  checkUnit(t.area, 'body.mst');
  t.mix.forEach((item, i) => {
    checkInfection(item.infection, `body.mix[${i}]`);
    checkUnit(item.total, `body.mix[${i}].mdt`);
  });
  t.machines?.forEach((m, i) => check.code('TIPO_MAQUINA_UNE', m.une, `body.machine[${i}].id`));
  if (t.phenology) check.code('EST_FENOLOGICO', t.phenology.code, 'body.phenology.id');
  return check.violations;
}
