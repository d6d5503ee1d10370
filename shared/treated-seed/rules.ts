import { ProductUse } from '../catalog/product';
import { CodeCheck } from '../catalog/siex-codes/code-check';
import { Violation } from '../domain/errors';
import { treatedSeedViolation } from './errors';
import { weighedRules } from '../plant-protection/part-code-rules';
import { labelRules } from '../plant-protection/part-rules';
import { LabelContext, ProductApplication } from '../plant-protection/product-part';
import { JudgeContext } from '../records/record-kind';
import { timeRules } from '../rules/time-rules';
import { TREATED_FOR_THE_FARM, TreatedSeed } from './treated-seed';

/** What judging resolved: the register's seed uses that allow the products. */
export interface TreatedSeedResolution {
  uses: ProductUse[];
}

/**
 * Every rule on a use of treated seed, every violation at once:
 * - the day in the farm's campaign, not in the future, registered within the operators' MAX_BACKDATE_DAYS (as a
 *   treatment: RD 1311/2012 art. 16 sets no deadline of its own);
 * - its codes in force on the day (FEGA, Anexo VII): where it was treated (TIPO_TRATAMIENTO), the crop (PRODUCTOS),
 *   the efficacy (EFICACIA_TRATAMIENTO), the units (UNIDADES_MEDIDA, with their own symbols);
 * - the seed weighed: `UsoSemillaTratada.Cantidad` is in kilograms (FEGA's Anexo V, "unidades válidas: kg");
 * - the products named when the farm treated the seed or had it treated (TIPO_TRATAMIENTO 2, 3): RD 1311/2012 Anexo
 *   III, Parte I B.e ("si la siembra se realiza con semilla tratada, indicar el producto") and Reg. (EU) 2023/564
 *   (the record of a seed treatment names its product); for seed bought treated (4, 5) the seller treated it, and
 *   they may be left out;
 * - each product named, whoever treated the seed, as its label allows (Reg. (EC) 1107/2009 art. 55): in the register
 *   and in force on the day, its dose in a unit SIEX knows, and a use whose scope is `seed` on the crop, at that dose,
 *   in that month; a product with field uses only is 422 PRODUCT_NOT_FOR_CROP at body.products[i].subtype. The only
 *   product SIEX's line takes is one of the Spanish register (TIPO_PRODFITO 1).
 */
export function judgeTreatedSeed(ctx: JudgeContext<TreatedSeed>): {
  violations: Violation[];
  resolution: TreatedSeedResolution;
} {
  const s = ctx.request;
  const { products, codes } = ctx.reference;
  const check = new CodeCheck(codes, ctx.appliedAt);
  check.code('TIPO_TRATAMIENTO', s.treatment.code, 'body.treatment.id');
  check.code('PRODUCTOS', s.crop.code, 'body.crop.id');
  check.measure(s.unit, 'body.measure');
  if (s.efficacy) check.code('EFICACIA_TRATAMIENTO', s.efficacy.code, 'body.efficacy.id');
  s.products.forEach((p, i) => check.measure(p.total?.unit, `body.products[${i}].mdt`));
  const violations = [
    ...timeRules(ctx, 'body.date'),
    ...check.violations,
    ...weighedRules(codes, s.unit, 'body.measure.code', 'the seed'),
  ];
  if (s.products.length === 0 && TREATED_FOR_THE_FARM.includes(s.treatment.code))
    violations.push(
      treatedSeedViolation(
        'SEED_PRODUCTS_REQUIRED',
        'body.products',
        `seed treated ${s.treatment.code === '2' ? 'on the farm' : 'at a conditioning centre'} must name the products it was treated with`,
      ),
    );
  const label: LabelContext = {
    appliedAt: ctx.appliedAt,
    codes,
    codeInForce: (catalogue, code, on) => codes.isValid(catalogue, code, on),
  };
  const cropName = codes.name('PRODUCTOS', s.crop.code) ?? s.crop.name;
  const crops = new Map([[s.crop.code, cropName]]);
  const uses: ProductUse[] = [];
  s.products.forEach((p, i) => {
    const at = `body.products[${i}]`;
    const app: ProductApplication = {
      mixed: false,
      code: p.code,
      dose: p.dose,
      unit: p.unit,
      infection: null,
      product: products.get(p.code),
      own: (field) => `${at}.${field}`,
      // The day is the record's; a refusal of the product for the crop names the product.
      shared: (field) => (field === 'dateApplication' ? 'body.date' : `${at}.${field}`),
    };
    const judged = labelRules(label, app, {
      scope: 'seed',
      crops: () => crops,
      label: `${cropName} (${s.crop.code})`,
    });
    violations.push(...judged.violations);
    uses.push(...judged.uses);
  });
  return { violations, resolution: { uses } };
}
