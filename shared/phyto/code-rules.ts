import { CatalogueName } from '../catalog/siex-codes/catalogues';
import { PEST_CATALOGUE } from '../catalog/siex-codes/siex-codes';
import { sameSymbol } from '../domain/units';
import { Violation, violation } from '../domain/errors';
import { RuleContext } from './rule-context';

/**
 * The optional SIEX fields carry codes of the official catalogues, in force on the application date: the infection,
 * justifications, efficacy, the units of the total amount and of the treated area (written with their own symbols),
 * each machine's UNE type and the phenological stage.
 */
export function codeRules(ctx: RuleContext): Violation[] {
  const { request: r, appliedAt: on } = ctx;
  const out: Violation[] = [];
  const check = (catalogue: CatalogueName, code: string, path: string): boolean => {
    if (ctx.codeInForce(catalogue, code, on)) return true;
    out.push(
      violation(
        'UNKNOWN_SIEX_CODE',
        path,
        `${code} is not a code of the SIEX catalogue ${catalogue} in force on that date`,
      ),
    );
    return false;
  };
  if (r.infection) check(PEST_CATALOGUE[r.infection.kind], r.infection.id, 'body.infection.id');
  r.tj?.forEach((t, i) => check('JUSTIFICACION_ACTUACION', t.id, `body.tj[${i}].id`));
  if (r.efficacy) check('EFICACIA_TRATAMIENTO', r.efficacy.id, 'body.efficacy.id');
  for (const field of ['mdt', 'mst'] as const) {
    const measure = r[field];
    if (!measure || !check('UNIDADES_MEDIDA', String(measure.code), `body.${field}.code`)) continue;
    const symbol = ctx.codes.units.get(measure.code)?.symbol ?? '';
    if (!sameSymbol(symbol, measure.symbol)) {
      out.push(
        violation(
          'MEASURE_MISMATCH',
          `body.${field}.symbol`,
          `unit code ${measure.code} is ${symbol}, not ${measure.symbol}`,
        ),
      );
    }
  }
  r.machine?.forEach((m, i) => check('TIPO_MAQUINA_UNE', m.id, `body.machine[${i}].id`));
  if (r.phenology) check('EST_FENOLOGICO', r.phenology.id, 'body.phenology.id');
  return out;
}
