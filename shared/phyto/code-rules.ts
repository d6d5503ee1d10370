import { CodeCheck } from '../catalog/siex-codes/code-check';
import { Violation } from '../domain/errors';
import { partCodeRules } from '../plant-protection/part-code-rules';
import { RuleContext } from './rule-context';

/**
 * The optional SIEX fields carry codes of the official catalogues, in force on the application date: those of the
 * product part (the infection, justifications, efficacy, the units of the total amounts, each mixed product's own
 * pest, each machine's UNE type: shared/plant-protection/part-code-rules.ts), the unit of the treated area (written
 * with its own symbol) and the phenological stage.
 */
export function codeRules(ctx: RuleContext): Violation[] {
  const { treatment: t } = ctx;
  const check = new CodeCheck(ctx.codes, ctx.appliedAt);
  partCodeRules(t, check);
  check.measure(t.area?.unit, 'body.mst');
  if (t.phenology) check.code('EST_FENOLOGICO', t.phenology.code, 'body.phenology.id');
  return check.violations;
}
