import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseCsv } from '../../shared/catalog/siex-codes/csv';
import { decodeCatalogue } from '../../shared/catalog/siex-codes/decode-catalogue';
import { MATERIAL_REQUIREMENTS, MaterialRequirement, NUTRIENT } from '../../shared/fertilization/material-requirements';
import { SupplierId } from '../../shared/fertilization/fertilizer-supplier';
import { officialCodes, SIEX_DIR } from './catalog-fixtures';

/**
 * MAT_FERTI's "Campos a registrar" read word by word, as FEGA writes it: items after `·`, the supplier's identifiers
 * after "Empresa suministradora/", the treatments after "-Tratamiento recibido:". A phrase this reading does not know
 * throws, naming it: a new copy of the catalogue that asks for something new must be looked at, not skipped.
 */
const NUTRIENT_WORDS: Record<string, number> = {
  'N total': NUTRIENT.nTotal,
  'N orgánico': NUTRIENT.nOrganic,
  'N nítrico': NUTRIENT.nNitric,
  'N amoniacal': NUTRIENT.nAmmoniacal,
  'N ureico': NUTRIENT.nUreic,
  'P2O5 total': NUTRIENT.p2o5Total,
  'P2O5 soluble en agua': NUTRIENT.p2o5Water,
  'P2O5 soluble en citrato amónico neutro y agua': NUTRIENT.p2o5Citrate,
  'K2O total': NUTRIENT.k2o,
  'K2O (soluble en agua)': NUTRIENT.k2oWater,
  'C orgánico': NUTRIENT.cOrganic,
  'CaO (en forma de carbonato) s.m.s.': NUTRIENT.cao,
};
const TREATMENT_WORDS: Record<string, number> = {
  ninguno: 1,
  'separación sólido-líquido: fracción sólida': 2,
  'separación sólido-líquido: fracción líquida': 3,
  'efluentes tratamiento ndn': 4,
};

function readColumn(text: string): MaterialRequirement {
  const out = {
    nutrients: [] as number[],
    optionalNutrients: [] as number[],
    byLabel: false,
    supplier: [] as SupplierId[],
    treatments: [] as number[],
    productName: false,
    heavyMetals: false,
  };
  const [head = '', treatments] = text.split(/\s*-Tratamiento recibido:\s*/);
  let items = head;
  if (items.includes('(según la etiqueta del producto)')) {
    out.byLabel = true;
    items = items.replace('(según la etiqueta del producto)', '');
  }
  for (const raw of items.split('·')) {
    const item = raw
      .replace(/^[\s.]+/, '')
      .replace(/\s+/g, ' ')
      .trim();
    if (!item || item === 'Ninguno' || item === 'Dosis') continue;
    const optional = item.endsWith('(opcional)');
    const words = item.replace(/\s*\(opcional\)$/, '');
    if (words in NUTRIENT_WORDS) (optional ? out.optionalNutrients : out.nutrients).push(NUTRIENT_WORDS[words]);
    else if (words === 'Nombre' || words === 'Nombre del tipo') out.productName = true;
    else if (words === 'Metales pesados') out.heavyMetals = true;
    else if (words.startsWith('Empresa suministradora/'))
      out.supplier = words
        .split('/')
        .slice(1)
        .map((id) => id.trim().toLowerCase() as SupplierId);
    else throw new Error(`MAT_FERTI asks for something this reading does not know: "${words}"`);
  }
  for (const t of treatments?.split(/\/(?!\s*fracci)/) ?? []) {
    const key = t
      .trim()
      .toLowerCase()
      .replace(/^fracción/, 'separación sólido-líquido: fracción');
    if (!(key in TREATMENT_WORDS)) throw new Error(`unknown treatment "${t}"`);
    out.treatments.push(TREATMENT_WORDS[key]);
  }
  return out;
}

const sorted = (r: MaterialRequirement) => ({
  ...r,
  nutrients: [...r.nutrients].sort((a, b) => a - b),
  optionalNutrients: [...r.optionalNutrients].sort((a, b) => a - b),
  supplier: [...r.supplier].sort(),
  treatments: [...r.treatments].sort((a, b) => a - b),
});

describe("MAT_FERTI's 'Campos a registrar', read into MATERIAL_REQUIREMENTS", () => {
  const { rows } = parseCsv(decodeCatalogue(readFileSync(path.join(SIEX_DIR, 'MAT_FERTI.csv'))));
  const [header, ...body] = rows;
  const column = header.findIndex((h) => h.startsWith('Campos a registrar'));

  it('has a row for every material of the official file, and no other', () => {
    expect(column).toBeGreaterThan(0);
    expect(Object.keys(MATERIAL_REQUIREMENTS).sort()).toEqual(body.map((r) => r[0].trim()).sort());
  });

  it.each(body.map((r) => [r[0].trim(), r[column]] as const))('material %s asks what the table says', (code, text) => {
    expect(sorted(MATERIAL_REQUIREMENTS[Number(code)])).toEqual(sorted(readColumn(text)));
  });

  it('names only nutrients and treatments the catalogues have', () => {
    const codes = officialCodes();
    for (const r of Object.values(MATERIAL_REQUIREMENTS)) {
      for (const n of [...r.nutrients, ...r.optionalNutrients]) expect(codes.get('MACRONUTRIENTES', n)).toBeDefined();
      for (const t of r.treatments) expect(codes.get('TRAT_ESTIERCOLES', t)).toBeDefined();
    }
  });

  it('a reading of a phrase it does not know fails, naming the phrase', () => {
    expect(() => readColumn('· N total · Humedad')).toThrow('"Humedad"');
  });
});
