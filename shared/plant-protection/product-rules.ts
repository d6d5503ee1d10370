import { ProductUse } from '../catalog/product';
import { StoredProduct } from '../catalog/catalog-store';
import { describeStanding, productStandingOn } from '../catalog/product-state';
import { CatalogueUnit } from '../catalog/unit-catalogue';
import { authorisesMonth, usesAgainst, usesForCrop } from '../catalog/product-uses';
import { formatDate } from '../domain/dates';
import { convertDose, exceeds, fallsShort, isRate, needsSprayVolume, sameSymbol } from '../domain/units';
import { Violation, violation } from '../domain/errors';
import { UseScope } from '../domain/use-scope';
import { LabelContext, ProductApplication } from './product-part';

/** The product is in force on the day: registered, and not past its last day (shared/catalog/product-state.ts). */
export function productInForce(ctx: LabelContext, app: ProductApplication, product: StoredProduct): Violation[] {
  const standing = productStandingOn(product, ctx.appliedAt);
  if (standing.inForce) return [];
  const on = standing.why === 'not-registered-yet' ? '' : ` on ${formatDate(ctx.appliedAt)}`;
  return [
    violation('PRODUCT_NOT_IN_FORCE', app.own('subtype.code'), `${product.code}${on} ${describeStanding(standing)}`),
  ];
}

/** How a refusal says which uses were looked at: none for a field treatment, as before scopes. */
const SCOPE_WORDS: Record<UseScope, string> = {
  field: '',
  postharvest: ' after harvest (no use of the register for harvested produce)',
  facility: ' in stores and premises (no use of the register for them)',
  seed: ' as a seed treatment (no use of the register for seed)',
};

/** The product has no use of the scope for the crop (`crop`, in words): PRODUCT_NOT_FOR_CROP at `path`. */
export function notForCrop(product: StoredProduct, crop: string, scope: UseScope, path: string): Violation {
  return violation('PRODUCT_NOT_FOR_CROP', path, `${product.code} is not authorized on ${crop}${SCOPE_WORDS[scope]}`);
}

function describeRange(use: ProductUse): string {
  return `${use.doseMin}-${use.doseMax} ${use.unit.symbol}`;
}

/**
 * The dose unit: a UNIDADES_MEDIDA code in force on the day (every code is a valid CUE `Unidad`), written with its own
 * symbol. Whether it is a dose of the kind the label authorises is for `cropUseRules` to say, use by use.
 */
export function doseUnitRules(
  ctx: LabelContext,
  app: ProductApplication,
): { unit?: CatalogueUnit; violations: Violation[] } {
  const measure = app.unit;
  const unit = ctx.codes.units.get(measure.code);
  if (!unit || !ctx.codeInForce('UNIDADES_MEDIDA', String(measure.code), ctx.appliedAt)) {
    return {
      violations: [
        violation(
          'UNKNOWN_SIEX_CODE',
          app.own('measure.code'),
          `${measure.code} is not a code of the SIEX catalogue UNIDADES_MEDIDA in force on that date`,
        ),
      ],
    };
  }
  if (!sameSymbol(unit.symbol, measure.symbol)) {
    return {
      unit,
      violations: [
        violation(
          'MEASURE_MISMATCH',
          app.own('measure.symbol'),
          `unit code ${unit.code} is ${unit.symbol}, not ${measure.symbol}`,
        ),
      ],
    };
  }
  return { unit, violations: [] };
}

/**
 * For each crop treated: the product must have a use of the treatment's scope for it (`field` for growing crops,
 * `postharvest` for produce, `facility` for stores and premises, `seed` for seed before sowing, shared/catalog/product-uses.ts) and for the
 * pest, when given; the dose must be inside the range of such a use in a comparable unit, and the month must be one
 * the use authorizes (Reg. (EC) 1107/2009 art. 55: a product is used as its authorisation and label say). A crop is
 * satisfied by any one use that passes every test; the violations name what no use satisfied. A per-hectare dose and a
 * concentration compare through the spray volume per hectare: `sprayLitresPerHa`, from `soup` and the treated area.
 * `crops` maps each crop code to its name; a product not for a crop is reported at the pass's `field` (`shared`).
 */
export function cropUseRules(
  ctx: LabelContext,
  app: ProductApplication,
  product: StoredProduct,
  treated: { crops: ReadonlyMap<string, string>; field: string; scope: UseScope },
  unit: CatalogueUnit,
  sprayLitresPerHa: number | undefined,
): { violations: Violation[]; uses: ProductUse[] } {
  const violations: Violation[] = [];
  const chosen: ProductUse[] = [];
  const month = ctx.appliedAt.month;
  for (const [cropId, cropName] of treated.crops) {
    const forCrop = usesForCrop(product, cropId, treated.scope);
    if (forCrop.length === 0) {
      violations.push(notForCrop(product, `${cropName} (${cropId})`, treated.scope, app.shared(treated.field)));
      continue;
    }
    const infection = app.infection;
    const forPest = infection
      ? usesAgainst(forCrop, { kind: infection.kind, id: infection.code, name: infection.name }, ctx.codes.pests)
      : forCrop;
    if (forPest.length === 0) {
      violations.push(
        violation(
          'PEST_NOT_AUTHORIZED',
          app.own('infection'),
          `${product.code} is not authorized against ${infection!.kind} ${infection!.code} on ${cropName}`,
        ),
      );
      continue;
    }
    const verdicts = forPest.map((use) => ({
      use,
      dose: doseVerdict(ctx, app.dose, unit, use, sprayLitresPerHa),
      monthOk: authorisesMonth(use, month),
    }));
    const good = verdicts.filter((v) => v.dose === 'ok' && v.monthOk);
    if (good.length > 0) {
      chosen.push(...good.map((v) => v.use));
      continue;
    }
    violations.push(noUseFits(product, cropName, verdicts, app, unit, month));
  }
  return { violations, uses: [...new Set(chosen)] };
}

type DoseVerdict = 'ok' | 'above' | 'below' | 'incompatible' | 'needs-spray-volume';

/** One use of a crop as judged: whether its dose range takes the dose, and whether it authorizes the month. */
interface UseVerdict {
  use: ProductUse;
  dose: DoseVerdict;
  monthOk: boolean;
}

/**
 * Why no use of a crop passed, as one violation: the month when some use takes the dose, the unit when none can be
 * compared, else the dose against every range it could be compared with.
 */
function noUseFits(
  product: StoredProduct,
  cropName: string,
  verdicts: UseVerdict[],
  app: ProductApplication,
  unit: CatalogueUnit,
  month: number,
): Violation {
  const doseOk = verdicts.filter((v) => v.dose === 'ok');
  if (doseOk.length > 0) {
    const months = [...new Set(doseOk.flatMap((v) => v.use.months ?? []))].sort((a, b) => a - b);
    return violation(
      'OUTSIDE_AUTHORIZED_PERIOD',
      app.shared('dateApplication'),
      `${product.code} on ${cropName} is authorized in months ${months.join(', ')}, not in month ${month}`,
    );
  }
  if (verdicts.every((v) => v.dose === 'incompatible' || v.dose === 'needs-spray-volume')) {
    const labels = [...new Set(verdicts.map((v) => v.use.unit.symbol))].join(', ');
    const hint = verdicts.some((v) => v.dose === 'needs-spray-volume')
      ? ': give soup (litres of spray mixture for the treated area) to compare a per-hectare dose with a concentration'
      : '';
    return violation(
      'DOSE_UNIT_INCOMPATIBLE',
      app.own('measure'),
      `${unit.symbol} cannot be compared with the authorized ${labels} on ${cropName}${hint}`,
    );
  }
  const comparable = verdicts.filter((v) => v.dose === 'above' || v.dose === 'below' || v.dose === 'ok');
  const code = comparable.every((v) => v.dose === 'above')
    ? 'DOSE_ABOVE_MAX'
    : comparable.every((v) => v.dose === 'below')
      ? 'DOSE_BELOW_MIN'
      : 'DOSE_OUT_OF_RANGE';
  return violation(
    code,
    app.own('dose'),
    `${app.dose} ${unit.symbol} is outside the authorized ${comparable.map((v) => describeRange(v.use)).join(' or ')} on ${cropName}`,
  );
}

function doseVerdict(
  ctx: LabelContext,
  dose: number,
  unit: CatalogueUnit,
  use: ProductUse,
  sprayLitresPerHa: number | undefined,
): DoseVerdict {
  const useUnit = ctx.codes.units.get(use.unit.code);
  let value: number | null = null;
  if (unit.code === use.unit.code) value = dose;
  else if (isRate(unit.dimension) && isRate(useUnit?.dimension)) {
    value = convertDose(dose, unit.dimension, useUnit.dimension, sprayLitresPerHa);
    if (value === null && sprayLitresPerHa === undefined && needsSprayVolume(unit.dimension, useUnit.dimension)) {
      return 'needs-spray-volume';
    }
  }
  if (value === null) return 'incompatible';
  if (exceeds(value, use.doseMax)) return 'above';
  if (fallsShort(value, use.doseMin)) return 'below';
  return 'ok';
}
