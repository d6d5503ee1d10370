import { Violation, violation } from '../domain/errors';
import { applicatorRules } from './applicator-rules';
import { codeRules } from './code-rules';
import { historyRules } from './history-rules';
import { resolveLocations } from './location-rules';
import { cropUseRules, productInForce } from './product-rules';
import { Resolution, RuleContext } from './rule-context';
import { timeRules } from './time-rules';

/**
 * Every regulatory check of a phytosanitary application, run together so that all violations are reported at once.
 * Checks that depend on something missing (an unknown product, an unknown idcp) are skipped rather than reported
 * twice under another name.
 */
export function checkApplication(ctx: RuleContext): { violations: Violation[]; resolution: Resolution } {
  const violations: Violation[] = [...timeRules(ctx), ...codeRules(ctx), ...applicatorRules(ctx)];
  const { entries, violations: locationViolations } = resolveLocations(ctx);
  violations.push(...locationViolations);
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
  const { violations: useViolations, uses } = cropUseRules(ctx, product, entries);
  violations.push(...useViolations);
  violations.push(...historyRules(ctx, entries, uses));
  return { violations, resolution: { entries, uses } };
}
