import { DateTime } from 'luxon';
import { CodeCheck } from '../catalog/siex-codes/code-check';
import { SiexCodes } from '../catalog/siex-codes/siex-codes';
import { Violation } from '../domain/errors';
import { fertilizationViolation } from './errors';
import { materialOfDetail } from './fertilizer-detail';
import { Fertilization } from './fertilization';

/**
 * Every code of a fertilization is one of its SIEX catalogue in force on the first day of the application. Good
 * practices are read in their "Fertilización" scope only (shared/catalog/siex-codes/catalogues.ts): a practice of
 * irrigation or of plant protection alone is refused here as not being a code of that scope.
 */
export function fertilizationCodeRules(f: Fertilization, codes: SiexCodes, on: DateTime): Violation[] {
  const check = new CodeCheck(codes, on, {
    BUENAS_PRACTICAS_FERTILIZACION: 'BUENAS_PRACTICAS_AMBITOS (scope Fertilización)',
  });
  const m = f.material;
  check.code('MAT_FERTI', m.code, 'body.material.id');
  m.nutrients.forEach((n, i) => check.code('MACRONUTRIENTES', n.code, `body.material.nutrients[${i}].id`));
  m.micronutrients.forEach((n, i) => check.code('MICRONUTRIENTES', n.code, `body.material.micronutrients[${i}].id`));
  m.heavyMetals.forEach((n, i) => check.code('METALES_PESADOS', n.code, `body.material.heavyMetals[${i}].id`));
  if (m.treatment !== null) check.code('TRAT_ESTIERCOLES', m.treatment, 'body.material.treatment.id');
  const out: Violation[] = [];
  if (m.detail !== null && check.code('DETALLE_MATERIAL_FERT', m.detail, 'body.material.detail.id')) {
    // Each commercial product is one material's (DETALLE_MATERIAL_FERT, first column): SIEX would hold a product
    // the record's material cannot be.
    const of = materialOfDetail(codes, m.detail);
    if (of !== m.code)
      out.push(
        fertilizationViolation(
          'DETAIL_NOT_OF_MATERIAL',
          'body.material.detail.id',
          `${m.detail} is a product of material ${of} in DETALLE_MATERIAL_FERT, not of ${m.code}`,
        ),
      );
  }
  check.code('TIPO_FERITILIZACION', f.kind, 'body.kind.id');
  check.code('METODO_APLICACION_FERTILIZANTE', f.method, 'body.method.id');
  check.measure(f.unit, 'body.measure');
  f.goodPractices.forEach((g, i) => check.code('BUENAS_PRACTICAS_FERTILIZACION', g, `body.goodPractices[${i}].id`));
  if (f.fertigation) {
    const at = 'body.fertigation';
    check.code('SIST_RIEGO', f.fertigation.system, `${at}.system.id`);
    f.fertigation.waterOrigins.forEach((o, i) => check.code('ORIGEN_AGUA_RIEGO', o, `${at}.waterOrigins[${i}].id`));
    check.measure(f.fertigation.unit, `${at}.measure`);
    check.measure(f.fertigation.nUnit, `${at}.nMeasure`);
    check.measure(f.fertigation.pUnit, `${at}.pMeasure`);
  }
  if (f.machine) check.code('TIPO_MAQUINA_UNE', f.machine.une, 'body.machine[0].id');
  return [...check.violations, ...out];
}
