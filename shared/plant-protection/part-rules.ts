import { StoredProduct } from '../catalog/catalog-store';
import { ProductUse } from '../catalog/product';
import { CodeCheck } from '../catalog/siex-codes/code-check';
import { usesForCrop } from '../catalog/product-uses';
import { Violation, violation } from '../domain/errors';
import { PestKind } from '../domain/pest-kind';
import { UseScope } from '../domain/use-scope';
import { advisorRules } from './advisor-rules';
import { applicatorRules, cardLevelRules } from './applicator-rules';
import { equipmentRules } from './equipment-rules';
import { partCodeRules } from './part-code-rules';
import { LabelContext, PartContext, partApplications, ProductApplication, ProductPart, Pest } from './product-part';
import { cropUseRules, doseUnitRules, notForCrop, productInForce } from './product-rules';

/** What a treatment of something other than a growing crop treats, as its product part is judged against it. */
export interface Treated {
  /** The scope of the register's uses that authorise it (shared/domain/use-scope.ts). */
  scope: UseScope;
  /**
   * The SIEX crops (PRODUCTOS code → name) a use of the product may be for, any one of which authorises it: the crops
   * of the produce treated, or, in a store, whichever its uses name ('' for a use that names none).
   */
  crops(product: StoredProduct): ReadonlyMap<string, string>;
  /** What the crops are, in words, when no use names any (`Naranjas (PROD_VEGETAL 116)`). */
  label: string;
  /** The kinds of pest its CUE block can state (`ProblematicaFito`'s groups); an infection of another is refused. */
  pests: readonly PestKind[];
}

/** The product part's rule context, with the register entries of the mix's products, in its order. */
export interface PartJudgeContext extends PartContext {
  /** These treatments always name their product. */
  treatment: ProductPart;
  mixed: readonly (StoredProduct | undefined)[];
}

/**
 * Every rule of the product part of a treatment of produce or of a store (RD 1311/2012 Anexo III, Parte I
 * B; Reg. (EC) 1107/2009 arts. 31 and 55), every violation at once: its codes in force, the applicator's card (RD
 * 1311/2012 art. 18), the advisor (arts. 11-12), the equipment (RD 1702/2011 art. 6), the pest of a kind the block
 * states, and each product, main and mixed, as if applied alone: in the register and in force, the card's level
 * enough, the dose in a unit SIEX knows, and a use of the treatment's scope for one of its crops, against the pest, at
 * that dose, in that month. There is no enclosure, so no count or interval of applications is kept.
 */
export function partRules(ctx: PartJudgeContext, treated: Treated): { violations: Violation[]; uses: ProductUse[] } {
  const t = ctx.treatment;
  const check = new CodeCheck(ctx.codes, ctx.appliedAt);
  partCodeRules(t, check);
  const violations: Violation[] = [
    ...check.violations,
    ...pestKindRules(t.infection, 'body', treated.pests),
    ...t.mix.flatMap((m, i) => pestKindRules(m.infection, `body.mix[${i}]`, treated.pests)),
    ...applicatorRules(ctx),
    ...advisorRules(ctx),
    ...equipmentRules(ctx),
  ];
  const uses: ProductUse[] = [];
  for (const app of partApplications(t, ctx.product, ctx.mixed)) {
    const judged = productRules(ctx, app, treated);
    violations.push(...judged.violations);
    uses.push(...judged.uses);
  }
  return { violations, uses };
}

/** `ProblematicaFito` of these blocks has no group for some kinds (no MalasHierbas; in stores, no ReguladoresOtros). */
function pestKindRules(pest: Pest | null, at: string, kinds: readonly PestKind[]): Violation[] {
  if (!pest || kinds.includes(pest.kind)) return [];
  return [
    violation(
      'INFECTION_KIND_NOT_IN_BLOCK',
      `${at}.infection.kind`,
      `a ${pest.kind} cannot be the problem of this treatment: its CUE block states only ${kinds.join(', ')}`,
    ),
  ];
}

function productRules(
  ctx: PartJudgeContext,
  app: ProductApplication,
  treated: Treated,
): { violations: Violation[]; uses: ProductUse[] } {
  // The main product's card level is among the applicator rules; a mixed one's is checked here, under its path.
  return labelRules(ctx, app, treated, (product) =>
    app.mixed ? cardLevelRules(ctx, product, app.shared('applicator.user.ropo')) : [],
  );
}

/**
 * One product against its label (Reg. (EC) 1107/2009 art. 55): in the register and in force on the day, its dose in
 * a unit SIEX knows, and a use of the scope for one of the crops, against its pest, at that dose, in that month. With
 * `more`, what else the product's register entry must satisfy, reported after its standing.
 */
export function labelRules(
  ctx: LabelContext,
  app: ProductApplication,
  treated: Pick<Treated, 'scope' | 'crops' | 'label'>,
  more: (product: StoredProduct) => Violation[] = () => [],
): { violations: Violation[]; uses: ProductUse[] } {
  const { product } = app;
  const dose = doseUnitRules(ctx, app);
  const violations = [...dose.violations];
  if (!product) {
    violations.push(
      violation('PRODUCT_NOT_FOUND', app.own('subtype.code'), `${app.code} is not in the official register`),
    );
    return { violations, uses: [] };
  }
  violations.push(...productInForce(ctx, app, product), ...more(product));
  const candidates = [...treated.crops(product)].filter(
    ([crop]) => usesForCrop(product, crop, treated.scope).length > 0,
  );
  if (candidates.length === 0) {
    violations.push(notForCrop(product, treated.label, treated.scope, app.shared('subtype')));
    return { violations, uses: [] };
  }
  if (!dose.unit) return { violations, uses: [] };
  // One crop whose use takes the pest, dose and month is enough: the produce or store is of one of them.
  const verdicts = candidates.map(([crop, name]) =>
    cropUseRules(
      ctx,
      app,
      product,
      { crops: new Map([[crop, name]]), field: 'subtype', scope: treated.scope },
      dose.unit!,
      undefined,
    ),
  );
  const good = verdicts.find((v) => v.violations.length === 0);
  if (good) return { violations, uses: good.uses };
  violations.push(...verdicts[0]!.violations);
  return { violations, uses: [] };
}
