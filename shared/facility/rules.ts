import { DateTime } from 'luxon';
import { StoredProduct } from '../catalog/catalog-store';
import { ProductUse } from '../catalog/product';
import { scopeOf } from '../catalog/product';
import { CodeCheck } from '../catalog/siex-codes/code-check';
import { SiexCodes } from '../catalog/siex-codes/siex-codes';
import { Violation, violation } from '../domain/errors';
import { JudgeContext } from '../records/record-kind';
import { judgePartTreatment } from '../plant-protection/part-kind';
import { FACILITY_PESTS } from './cue-block';
import { FacilityTreatment } from './facility';

/** What judging resolved: the register's uses that allow the treatment. */
export interface FacilityResolution {
  uses: ProductUse[];
}

/**
 * Every rule on a store treatment, every violation at once:
 * - the treatments' rules on the product part, judged against the register's uses whose scope is `facility` (Reg.
 *   (EC) 1107/2009 art. 55; RD 1311/2012 Anexo III): a product with no such use is 422 PRODUCT_NOT_FOR_CROP at
 *   body.subtype (shared/plant-protection/part-rules.ts);
 * - the problem a disease or a pest: `TratamientosEdifInstalaciones.ProblematicaFito` has neither MalasHierbas nor
 *   ReguladoresOtros (CUE schema 3.11.4), so a weed or a regulation is 422 INFECTION_KIND_NOT_IN_BLOCK;
 * - each building's class an EDIFICACIONES_INSTALACIONES code in force (FEGA, Anexo VII), and its volume a volume:
 *   RD 1311/2012 Anexo III B.f asks the volume treated in m3 (CUE `Volumen` with `Unidad` 3).
 */
export function judgeFacility(ctx: JudgeContext<FacilityTreatment>): {
  violations: Violation[];
  resolution: FacilityResolution;
} {
  const t = ctx.request;
  const codes = ctx.reference.codes;
  const judged = judgePartTreatment(ctx, {
    scope: 'facility',
    crops: (product) => facilityCrops(codes, product),
    label: 'a store or premises',
    pests: FACILITY_PESTS,
  });
  return {
    violations: [...facilityRules(t, codes, ctx.appliedAt), ...judged.violations],
    resolution: { uses: judged.uses },
  };
}

/** The crops the product's facility uses name ('' for one that names none: a use for any store). */
function facilityCrops(codes: SiexCodes, product: StoredProduct): Map<string, string> {
  const crops = product.uses.filter((u) => scopeOf(u) === 'facility').flatMap((u) => u.cropTypeIds);
  const any = product.uses.some((u) => scopeOf(u) === 'facility' && u.cropTypeIds.length === 0);
  return new Map([
    ...(any ? [['', 'a store or premises'] as const] : []),
    ...crops.map((crop) => [crop, codes.name('PRODUCTOS', crop) ?? crop] as const),
  ]);
}

function facilityRules(t: FacilityTreatment, codes: SiexCodes, on: DateTime): Violation[] {
  const check = new CodeCheck(codes, on);
  const violations: Violation[] = [];
  t.facilities.forEach((f, i) => {
    const at = `body.facilities[${i}]`;
    check.code('EDIFICACIONES_INSTALACIONES', f.class, `${at}.id`);
    check.measure(f.unit, `${at}.measure`);
    const unit = codes.units.get(f.unit.code);
    if (unit && !(unit.dimension?.measure === 'volume' && unit.dimension.per === null))
      violations.push(
        violation(
          'TREATED_QUANTITY_UNIT',
          `${at}.measure.code`,
          `the volume of a store treated is in m3 or L (RD 1311/2012 Anexo III), not ${f.unit.symbol}`,
        ),
      );
  });
  return [...check.violations, ...violations];
}
