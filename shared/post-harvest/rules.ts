import { DateTime } from 'luxon';
import { ProductUse } from '../catalog/product';
import { CodeCheck } from '../catalog/siex-codes/code-check';
import { SiexCodes } from '../catalog/siex-codes/siex-codes';
import { Violation } from '../domain/errors';
import { JudgeContext } from '../records/record-kind';
import { weighedRules } from '../plant-protection/part-code-rules';
import { judgePartTreatment } from '../plant-protection/part-kind';
import { POST_HARVEST_PESTS } from './cue-block';
import { PostHarvestTreatment } from './post-harvest';

/** What judging resolved: the register's uses that allow the treatment. */
export interface PostHarvestResolution {
  uses: ProductUse[];
}

/**
 * Every rule on a post-harvest treatment, every violation at once:
 * - the treatments' rules on the product part, judged against the register's uses whose scope is `postharvest` on a
 *   crop of the produce (Reg. (EC) 1107/2009 art. 55; RD 1311/2012 art. 16 and Anexo III): a product with field uses
 *   only is 422 PRODUCT_NOT_FOR_CROP at body.subtype (shared/plant-protection/part-rules.ts);
 * - the problem a disease, a pest or a regulation: `TratamientosPostCosecha.ProblematicaFito` has no MalasHierbas
 *   (CUE schema 3.11.4), so a weed is 422 INFECTION_KIND_NOT_IN_BLOCK;
 * - the produce a PROD_VEGETAL code in force (FEGA, Anexo VII), its quantity a mass: the block's `Cantidad` is in
 *   kilograms (FEGA's Anexo V: "unidades válidas: kg"; shared/plant-protection/part-code-rules.ts).
 */
export function judgePostHarvest(ctx: JudgeContext<PostHarvestTreatment>): {
  violations: Violation[];
  resolution: PostHarvestResolution;
} {
  const t = ctx.request;
  const codes = ctx.reference.codes;
  const judged = judgePartTreatment(ctx, {
    scope: 'postharvest',
    crops: () => produceCrops(codes, t.produce.id),
    label: `${t.produce.name || 'the produce'} (PROD_VEGETAL ${t.produce.id})`,
    pests: POST_HARVEST_PESTS,
  });
  return {
    violations: [...produceRules(t, codes, ctx.appliedAt), ...judged.violations],
    resolution: { uses: judged.uses },
  };
}

/** The SIEX crops (PRODUCTOS code → name) the produce comes from, as PROD_VEGETAL pairs them. */
function produceCrops(codes: SiexCodes, produce: number): Map<string, string> {
  const crops = codes.get('PROD_VEGETAL', produce)?.crops ?? [];
  return new Map(crops.map((crop) => [crop, codes.name('PRODUCTOS', crop) ?? crop]));
}

function produceRules(t: PostHarvestTreatment, codes: SiexCodes, on: DateTime): Violation[] {
  const check = new CodeCheck(codes, on);
  check.code('PROD_VEGETAL', t.produce.id, 'body.plantProduct.id');
  check.measure(t.produce.unit, 'body.plantProduct.measure');
  return [
    ...check.violations,
    ...weighedRules(codes, t.produce.unit, 'body.plantProduct.measure.code', 'the produce treated'),
  ];
}
