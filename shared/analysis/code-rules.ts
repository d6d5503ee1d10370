import { DateTime } from 'luxon';
import { CodeCheck } from '../catalog/siex-codes/code-check';
import { SiexCodes } from '../catalog/siex-codes/siex-codes';
import { Violation } from '../domain/errors';
import { Analysis } from './analysis';

/** Every code of an analysis is one of its SIEX catalogue in force on its day (the codes of CUE `Analitica`). */
export function analysisCodeRules(a: Analysis, codes: SiexCodes, on: DateTime): Violation[] {
  const check = new CodeCheck(codes, on);
  check.code('MATERIAL_ANALIZADO', a.material, 'body.material.id');
  a.analyses.forEach((t, n) => check.code('TIPO_ANALISIS', t, `body.analyses[${n}].id`));
  a.substances.forEach((s, n) => check.code('SUST_ACTIVAS', s, `body.substances[${n}].id`));
  return check.violations;
}
