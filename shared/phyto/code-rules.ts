import { PhytoRequest } from './wire';
import { CodeCheck } from '../catalog/siex-codes/code-check';
import { PEST_CATALOGUE } from '../catalog/siex-codes/siex-codes';
import { Violation } from '../domain/errors';
import { RuleContext } from './rule-context';

/**
 * The optional SIEX fields carry codes of the official catalogues, in force on the application date: the infection,
 * justifications, efficacy, the units of the total amount and of the treated area (written with their own symbols),
 * each machine's UNE type and the phenological stage; of each mixed product, its own pest and total amount unit.
 */
export function codeRules(ctx: RuleContext): Violation[] {
  const { request: r } = ctx;
  const check = new CodeCheck(ctx.codes, ctx.appliedAt);
  const checkInfection = (infection: PhytoRequest['infection'], at: string) => {
    if (infection) check.code(PEST_CATALOGUE[infection.kind], infection.id, `${at}.infection.id`);
  };
  checkInfection(r.infection, 'body');
  r.tj?.forEach((t, i) => check.code('JUSTIFICACION_ACTUACION', t.id, `body.tj[${i}].id`));
  if (r.efficacy) check.code('EFICACIA_TRATAMIENTO', r.efficacy.id, 'body.efficacy.id');
  for (const field of ['mdt', 'mst'] as const) check.measure(r[field], `body.${field}`);
  r.mix?.forEach((item, i) => {
    checkInfection(item.infection, `body.mix[${i}]`);
    check.measure(item.mdt, `body.mix[${i}].mdt`);
  });
  r.machine?.forEach((m, i) => check.code('TIPO_MAQUINA_UNE', m.id, `body.machine[${i}].id`));
  if (r.phenology) check.code('EST_FENOLOGICO', r.phenology.id, 'body.phenology.id');
  return check.violations;
}
