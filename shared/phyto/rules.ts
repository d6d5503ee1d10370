import { Violation, violation } from '../domain/errors';
import { applicatorRules } from './applicator-rules';
import { sprayVolumeRules, treatedAreaRules } from './area-rules';
import { codeRules } from './code-rules';
import { equipmentRules } from './equipment-rules';
import { historyRules } from './history-rules';
import { resolveLocations } from './location-rules';
import { cropUseRules, doseUnitRules, productInForce } from './product-rules';
import { Resolution, RuleContext } from './rule-context';
import { timeRules } from './time-rules';

/**
 * Every regulatory check of a phytosanitary application, run together so that all violations are reported at once.
 * Checks that depend on something missing (an unknown product, an unknown idcp, a unit that is no SIEX code) are
 * skipped rather than reported twice under another name.
 */
export function checkApplication(ctx: RuleContext): { violations: Violation[]; resolution: Resolution } {
  const violations: Violation[] = [
    ...timeRules(ctx),
    ...codeRules(ctx),
    ...applicatorRules(ctx),
    ...equipmentRules(ctx),
  ];
  const { entries, violations: locationViolations } = resolveLocations(ctx);
  violations.push(...locationViolations);
  const area = treatedAreaRules(ctx, entries);
  violations.push(...area.violations);
  const soup = ctx.request.soup === undefined ? undefined : Number(ctx.request.soup);
  const sprayLitresPerHa = soup !== undefined && area.hectares ? soup / area.hectares : undefined;
  violations.push(...sprayVolumeRules(sprayLitresPerHa, ctx.request.soup));
  const dose = doseUnitRules(ctx);
  violations.push(...dose.violations);
  const product = ctx.product;
  if (!product) {
    violations.push(
      violation(
        'PRODUCT_NOT_FOUND',
        'body.subtype.code',
        `${ctx.request.subtype.code} is not in the official register`,
      ),
    );
    return { violations, resolution: { entries, uses: [] } };
  }
  violations.push(...productInForce(ctx, product));
  if (!dose.unit) return { violations, resolution: { entries, uses: [] } };
  const { violations: useViolations, uses } = cropUseRules(ctx, product, entries, dose.unit, sprayLitresPerHa);
  violations.push(...useViolations);
  violations.push(...historyRules(ctx, entries, uses));
  return { violations, resolution: { entries, uses } };
}
