import { CodeCheck } from '../catalog/siex-codes/code-check';
import { Violation } from '../domain/errors';
import { partCodeRules } from '../plant-protection/part-code-rules';
import { RuleContext } from './rule-context';

/**
 * The optional SIEX fields carry codes of the official catalogues, in force on the application date: those of the
 * product part (the infection, justifications, efficacy, the units of the total amounts, each mixed product's own
 * pest, each machine's UNE type: shared/plant-protection/part-code-rules.ts), the unit of the treated area (written
 * with its own symbol), the phenological stage, and a non-chemical measure's type, unit and good practice (its
 * "Fitosanitario" rows of BUENAS_PRACTICAS_AMBITOS: FEGA's descriptor, `OtrasActuacionesFito.BuenasPracticas`).
 */
export function codeRules(ctx: RuleContext): Violation[] {
  const { treatment: t } = ctx;
  const check = new CodeCheck(ctx.codes, ctx.appliedAt, {
    BUENAS_PRACTICAS_FITO: 'BUENAS_PRACTICAS_AMBITOS (scope Fitosanitario)',
  });
  partCodeRules(t, check);
  check.measure(t.area?.unit, 'body.mst');
  if (t.phenology) check.code('EST_FENOLOGICO', t.phenology.code, 'body.phenology.id');
  const m = t.otherMeasure;
  if (m) {
    check.code('TIPO_MEDIDA_FITOSANITARIA', m.measure.code, 'body.otherMeasure.id');
    check.measure(m.unit, 'body.otherMeasure.measure');
    if (m.goodPractice) check.code('BUENAS_PRACTICAS_FITO', m.goodPractice.code, 'body.otherMeasure.goodPractice.id');
  }
  return check.violations;
}
