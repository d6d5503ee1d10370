import { Violation } from '../domain/errors';
import { fertilizationViolation } from './errors';
import { Fertilization } from './fertilization';
import { isSewageSludge } from './material-kinds';
import { MATERIAL_REQUIREMENTS } from './material-requirements';

/**
 * The material carries the data MAT_FERTI's "Campos a registrar" asks of it (material-requirements.ts):
 * its nutrient contents, the supplier identified the way the material takes (REGA for manure from a livestock farm,
 * NIMA for waste, NIF for a company), the treatment it received among those listed, its product name, its heavy
 * metals. Data the material does not take (a supplier's REGA for a mineral fertilizer, a manure treatment for a
 * compost) is refused too: SIEX would have no field of that material to hold it. `names` gives each nutrient code
 * its catalogue name for the messages.
 */
export function materialRules(f: Fertilization, names: (nutrient: number) => string): Violation[] {
  const m = f.material;
  const need = MATERIAL_REQUIREMENTS[m.code];
  // An unknown material is UNKNOWN_SIEX_CODE already (code-rules.ts).
  if (!need) return [];
  const out: Violation[] = [];
  const missing = (path: string, message: string) =>
    out.push(fertilizationViolation('MATERIAL_DATA_MISSING', path, message));
  const given = new Set(m.nutrients.map((n) => n.code));
  const what = `material ${m.code}`;
  if (need.byLabel) {
    if (!need.nutrients.some((n) => given.has(n)))
      missing(
        'body.material.nutrients',
        `${what} records the nutrients its label declares, at least one of: ${need.nutrients.map(names).join(', ')}`,
      );
  } else
    for (const n of need.nutrients)
      if (!given.has(n))
        missing('body.material.nutrients', `${what} must record its ${names(n)} (MACRONUTRIENTES ${n})`);
  if (need.supplier.length === 0) {
    if (m.supplier) missing('body.material.supplier', `${what} records no supplier`);
  } else if (!m.supplier)
    missing('body.material.supplier', `${what} must record its supplier by ${need.supplier.join(', ')}`);
  else if (!need.supplier.includes(m.supplier.by))
    missing(
      `body.material.supplier.${m.supplier.by}`,
      `${what} identifies its supplier by ${need.supplier.join(', ')}`,
    );
  if (need.treatments.length === 0) {
    if (m.treatment !== null) missing('body.material.treatment', `${what} records no manure treatment`);
  } else if (m.treatment === null)
    missing(
      'body.material.treatment',
      `${what} must record the treatment it received (TRAT_ESTIERCOLES ${need.treatments.join(', ')})`,
    );
  else if (!need.treatments.includes(m.treatment))
    missing(
      'body.material.treatment.id',
      `${what} takes the treatments TRAT_ESTIERCOLES ${need.treatments.join(', ')}, not ${m.treatment}`,
    );
  if (need.productName && m.productName === null)
    missing('body.material.productName', `${what} must record the product's name`);
  if (need.heavyMetals && m.heavyMetals.length === 0)
    missing('body.material.heavyMetals', `${what} must record its heavy metal contents (METALES_PESADOS)`);
  // RD 1310/1990: sewage sludge on farmland is recorded as such (the CUE's AplicacionLodos), so the flag follows the
  // material both ways: sludge is not "not sludge", and a fertilizer is not sludge.
  const sludge = isSewageSludge(m.code);
  if (f.sludge !== sludge)
    out.push(
      fertilizationViolation(
        'SLUDGE_FLAG_MISMATCH',
        'body.sludge',
        sludge
          ? `${what} is sewage sludge (RD 1310/1990): sludge is true, or leave it out`
          : `${what} is not sewage sludge: only MAT_FERTI 22 (RD 1310/1990) is; sludge is false, or leave it out`,
      ),
    );
  return out;
}
