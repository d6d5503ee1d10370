import { CatalogueDetails } from '../catalog/catalogue-views';
import { Catalogues } from '../catalog/siex-codes/catalogues';
import { SiexCodes } from '../catalog/siex-codes/siex-codes';
import { MATERIAL_REQUIREMENTS } from './material-requirements';

/**
 * The SIEX catalogues of fertilization alone (RD 1051/2022, CUE `Fertilizacion`), as FEGA publishes them: the app
 * hands them to the catalogue code with every other (shared/app/siex-catalogues.ts). MAT_FERTI's "Campos a registrar"
 * column is read into code by material-requirements.ts, and a test holds that table to the file.
 */
export const FERTILIZATION_CATALOGUES = {
  MAT_FERTI: { file: 'MAT_FERTI.csv', name: 'Tipo de material' },
  TIPO_FERITILIZACION: { file: 'TIPO_FERITILIZACION.csv', name: 'Tipo de fertilización' },
  METODO_APLICACION_FERTILIZANTE: { file: 'METODO_APLICACION_FERTILIZANTE.csv', name: 'Método de fertilización' },
  MACRONUTRIENTES: { file: 'MACRONUTRIENTES.csv', name: 'Descripción' },
  MICRONUTRIENTES: { file: 'MICRONUTRIENTES.csv', name: 'Descripción' },
  METALES_PESADOS: { file: 'METALES_PESADOS.csv', name: 'Descripción' },
  TRAT_ESTIERCOLES: { file: 'TRAT_ESTIERCOLES.csv', name: 'Tratamiento de estiércoles' },
  /**
   * The commercial products of each material (CUE `MaterialFertilizante.DetalleMaterial`): the code is
   * `C_FERTILIZANTE` (unique; the first column, `Código SIEX`, is the MAT_FERTI material it details), the name the full
   * trade name with its maker (`D_FERTILIZANTE_2`, which "PERSONALIZADO" rows alone fill), and the label's product
   * name beside it. FEGA publishes it without dates.
   */
  DETALLE_MATERIAL_FERT: {
    file: 'DETALLE_MATERIAL_FERT.csv',
    code: 'C_FERTILIZANTE',
    name: 'D_FERTILIZANTE_2',
    scientific: 'Nombre producto',
    parent: 'Código SIEX',
    undated: true,
  },
  /**
   * BUENAS_PRACTICAS_AMBITOS repeats a code once per scope (fertilization, irrigation, phytosanitary), each row with
   * its own dates: a fertilization record may declare only the rows of its scope, so only those are read.
   */
  BUENAS_PRACTICAS_FERTILIZACION: {
    file: 'BUENAS_PRACTICAS_AMBITOS.csv',
    name: 'Buenas prácticas',
    scope: { header: 'Ámbito', value: 'Fertilización' },
  },
} as const satisfies Catalogues;

/** A list of codes of a catalogue with their names, as a form would show them. */
const named = (codes: SiexCodes, catalogue: keyof typeof FERTILIZATION_CATALOGUES, list: readonly number[]) =>
  list.map((code) => ({ code: String(code), name: codes.name(catalogue, code) ?? '' }));

/** Each MAT_FERTI entry as the catalogue endpoint answers it, with what a fertilization of that material must record. */
export const FERTILIZATION_CATALOGUE_DETAILS: CatalogueDetails = {
  MAT_FERTI: (codes, code) => {
    const need = MATERIAL_REQUIREMENTS[Number(code)];
    return (
      need && {
        nutrients: named(codes, 'MACRONUTRIENTES', need.nutrients),
        optionalNutrients: named(codes, 'MACRONUTRIENTES', need.optionalNutrients),
        byLabel: need.byLabel,
        supplier: [...need.supplier],
        treatments: named(codes, 'TRAT_ESTIERCOLES', need.treatments),
        productName: need.productName,
        heavyMetals: need.heavyMetals,
      }
    );
  },
};
