import { ProductUse } from '../catalog/product';
import { StoredProduct } from '../catalog/catalog-store';
import { formatDate, parseDate } from '../domain/dates';
import { convertDose, doseUnit, DoseUnit, exceeds, fallsShort, sameSymbol } from '../domain/units';
import { Violation, violation } from '../domain/errors';
import { IdcpEntry } from '../farms/farm-index';
import { RuleContext } from './rule-context';

/** The product is in force on the day: registered, and not past its last-use date (or its expiry when it has none). */
export function productInForce(ctx: RuleContext, product: StoredProduct): Violation[] {
  const day = ctx.appliedAt.startOf('day');
  const registered = parseDate(product.registered)!;
  const lastDay = parseDate(product.lastUse || product.expires)!;
  if (day < registered) {
    return [
      violation('PRODUCT_NOT_IN_FORCE', 'body.subtype.code', `${product.code} was registered on ${product.registered}`),
    ];
  }
  if (day > lastDay) {
    const why = product.lastUse ? `its last-use date was ${product.lastUse}` : `it expired on ${product.expires}`;
    return [
      violation(
        'PRODUCT_NOT_IN_FORCE',
        'body.subtype.code',
        `${product.code} is not in force on ${formatDate(day)}: ${why}`,
      ),
    ];
  }
  return [];
}

function describeRange(use: ProductUse): string {
  return `${use.doseMin}-${use.doseMax} ${use.unit.symbol}`;
}

/**
 * For each crop among the locations: the product must have a use for it (and for the pest, when given), the dose must
 * be inside the range of such a use in a comparable unit, and the month must be one the use authorizes. A crop is
 * satisfied by any one use that passes every test; the violations name what no use satisfied.
 */
export function cropUseRules(
  ctx: RuleContext,
  product: StoredProduct,
  entries: IdcpEntry[],
): { violations: Violation[]; uses: ProductUse[] } {
  const { request } = ctx;
  const violations: Violation[] = [];
  const chosen: ProductUse[] = [];
  const unit = doseUnit(request.measure.code);
  if (!unit) {
    return {
      violations: [
        violation(
          'DOSE_UNIT_INCOMPATIBLE',
          'body.measure.code',
          `unit ${request.measure.code} is not a dose unit SIEX accepts for products`,
        ),
      ],
      uses: [],
    };
  }
  if (!sameSymbol(unit.symbol, request.measure.symbol)) {
    violations.push(
      violation(
        'MEASURE_MISMATCH',
        'body.measure.symbol',
        `unit code ${unit.code} is ${unit.symbol}, not ${request.measure.symbol}`,
      ),
    );
  }
  const month = ctx.appliedAt.month;
  const crops = new Map<string, string>();
  for (const e of entries) {
    const crop = ctx.farm.cropOf(e);
    crops.set(crop.typecropId, crop.typecropName);
  }
  for (const [cropId, cropName] of crops) {
    const forCrop = product.uses.filter((u) => u.cropTypeIds.includes(cropId));
    if (forCrop.length === 0) {
      violations.push(
        violation('PRODUCT_NOT_FOR_CROP', 'body.idcp', `${product.code} is not authorized on ${cropName} (${cropId})`),
      );
      continue;
    }
    const infection = request.infection;
    const forPest = infection ? usesAgainst(forCrop, infection.kind, infection.id) : forCrop;
    if (forPest.length === 0) {
      violations.push(
        violation(
          'PEST_NOT_AUTHORIZED',
          'body.infection',
          `${product.code} is not authorized against ${infection!.kind} ${infection!.id} on ${cropName}`,
        ),
      );
      continue;
    }
    const verdicts = forPest.map((use) => ({
      use,
      ...doseVerdict(request.dose, unit, use),
      monthOk: !use.months || use.months.includes(month),
    }));
    const good = verdicts.filter((v) => v.dose === 'ok' && v.monthOk);
    if (good.length > 0) {
      chosen.push(...good.map((v) => v.use));
      continue;
    }
    const doseOk = verdicts.filter((v) => v.dose === 'ok');
    if (doseOk.length > 0) {
      const months = [...new Set(doseOk.flatMap((v) => v.use.months ?? []))].sort((a, b) => a - b);
      violations.push(
        violation(
          'OUTSIDE_AUTHORIZED_PERIOD',
          'body.dateApplication',
          `${product.code} on ${cropName} is authorized in months ${months.join(', ')}, not in month ${month}`,
        ),
      );
    } else if (verdicts.every((v) => v.dose === 'incompatible')) {
      violations.push(
        violation(
          'DOSE_UNIT_INCOMPATIBLE',
          'body.measure',
          `${unit.symbol} cannot be compared with the authorized ${[...new Set(forPest.map((u) => u.unit.symbol))].join(', ')} on ${cropName}`,
        ),
      );
    } else {
      const comparable = verdicts.filter((v) => v.dose !== 'incompatible');
      const code = comparable.every((v) => v.dose === 'above')
        ? 'DOSE_ABOVE_MAX'
        : comparable.every((v) => v.dose === 'below')
          ? 'DOSE_BELOW_MIN'
          : 'DOSE_OUT_OF_RANGE';
      violations.push(
        violation(
          code,
          'body.dose',
          `${request.dose} ${unit.symbol} is outside the authorized ${comparable.map((v) => describeRange(v.use)).join(' or ')} on ${cropName}`,
        ),
      );
    }
  }
  return { violations, uses: [...new Set(chosen)] };
}

/**
 * The uses for the pest treated. The register names some pests that no SIEX catalogue has (stored with code 0 and
 * the register's words): when no coded use matches, those uses still authorize the crop, so the application is
 * judged by their dose and months rather than refused for a pest the register does allow.
 */
function usesAgainst(forCrop: ProductUse[], kind: string, code: string): ProductUse[] {
  const coded = forCrop.filter((u) => u.pest.kind === kind && String(u.pest.code) === code);
  return coded.length > 0 ? coded : forCrop.filter((u) => u.pest.code === 0);
}

function doseVerdict(
  dose: number,
  unit: DoseUnit,
  use: ProductUse,
): { dose: 'ok' | 'above' | 'below' | 'incompatible' } {
  const useUnit = doseUnit(use.unit.code);
  const value = useUnit ? convertDose(dose, unit, useUnit) : null;
  if (value === null) return { dose: 'incompatible' };
  if (exceeds(value, use.doseMax)) return { dose: 'above' };
  if (fallsShort(value, use.doseMin)) return { dose: 'below' };
  return { dose: 'ok' };
}
