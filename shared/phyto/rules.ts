import { StoredProduct } from '../catalog/catalog-store';
import { ProductUse } from '../catalog/product';
import { Violation, violation } from '../domain/errors';
import { IdcpEntry } from '../farms/farm-index';
import { treatedAreaRules } from '../rules/area-rules';
import { resolveLocations } from '../rules/location-rules';
import { timeRules } from '../rules/time-rules';
import { advisorRules } from '../plant-protection/advisor-rules';
import { applicatorRules, cardLevelRules } from '../plant-protection/applicator-rules';
import { equipmentRules } from '../plant-protection/equipment-rules';
import { cropUseRules, doseUnitRules, productInForce } from '../plant-protection/product-rules';
import { codeRules } from './code-rules';
import { measureRules } from './measure-rules';
import { historyRules } from './history-rules';
import { PhytoApplication, productApplications, Resolution, RuleContext } from './rule-context';
import { sprayVolumeRules } from './spray-rules';

/**
 * Every regulatory check of a phytosanitary application, run together so that all violations are reported at once.
 * Checks that depend on something missing (an unknown product, an unknown idcp, a unit that is no SIEX code) are
 * skipped rather than reported twice under another name.
 */
export function checkApplication(ctx: RuleContext): { violations: Violation[]; resolution: Resolution } {
  const t = ctx.treatment;
  const violations: Violation[] = [
    ...timeRules(ctx),
    ...codeRules(ctx),
    ...applicatorRules(ctx),
    ...advisorRules(ctx),
    ...equipmentRules(ctx),
    ...measureRules(ctx),
  ];
  const { entries, violations: locationViolations } = resolveLocations(ctx.farm, t.idcp);
  violations.push(...locationViolations);
  const area = treatedAreaRules(
    { locations: t.idcp.length, measured: t.area, surface: t.surface },
    ctx.codes.units,
    entries,
  );
  violations.push(...area.violations);
  const soup = t.soup === null ? undefined : Number(t.soup);
  const sprayLitresPerHa = soup !== undefined && area.hectares ? soup / area.hectares : undefined;
  violations.push(...sprayVolumeRules(sprayLitresPerHa, t.soup));
  const [main, ...mixed] = productApplications(ctx).map((app) => {
    const judged = productRules(ctx, app, entries, sprayLitresPerHa);
    violations.push(...judged.violations);
    return judged.resolved;
  });
  const resolved = mixed.filter((m) => m !== undefined);
  return {
    violations,
    resolution: {
      entries,
      uses: main?.uses ?? [],
      ...(t.mix.length > 0 && resolved.length === mixed.length ? { mixed: resolved } : {}),
    },
  };
}

/**
 * One product of the pass against its own label: in the register and in force, a dose unit SIEX knows, a use for each
 * crop and the pest at that dose in that month, and the count and interval on each enclosure. Checks that depend on
 * something missing (an unknown product, a unit that is no SIEX code) are skipped rather than reported twice.
 */
function productRules(
  ctx: RuleContext,
  app: PhytoApplication,
  entries: IdcpEntry[],
  sprayLitresPerHa: number | undefined,
): { violations: Violation[]; resolved?: { product: StoredProduct; uses: ProductUse[] } } {
  const dose = doseUnitRules(ctx, app);
  const violations = [...dose.violations];
  const { product } = app;
  if (!product) {
    violations.push(
      violation('PRODUCT_NOT_FOUND', app.own('subtype.code'), `${app.code} is not in the official register`),
    );
    return { violations };
  }
  violations.push(...productInForce(ctx, app, product));
  // The main product's card level is among the applicator rules; a mixed one's is checked here, under its path.
  if (app.mixed) violations.push(...cardLevelRules(ctx, product, app.shared('applicator.user.ropo')));
  if (!dose.unit) return { violations, resolved: { product, uses: [] } };
  const crops = new Map(entries.map((e) => [ctx.farm.cropOf(e).typecropId, ctx.farm.cropOf(e).typecropName]));
  const treated = { crops, field: 'idcp', scope: 'field' as const };
  const { violations: useViolations, uses } = cropUseRules(ctx, app, product, treated, dose.unit, sprayLitresPerHa);
  violations.push(...useViolations, ...historyRules(ctx, app, entries, uses));
  return { violations, resolved: { product, uses } };
}
