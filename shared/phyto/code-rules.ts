import { PhytoRequest } from '../api/phyto-schemas';
import { CatalogueName } from '../catalog/siex-codes/catalogues';
import { PEST_CATALOGUE } from '../catalog/siex-codes/siex-codes';
import { sameSymbol } from '../domain/units';
import { Violation, violation } from '../domain/errors';
import { RuleContext } from './rule-context';

/**
 * The optional SIEX fields carry codes of the official catalogues, in force on the application date: the infection,
 * justifications, efficacy, the units of the total amount and of the treated area (written with their own symbols),
 * each machine's UNE type and the phenological stage; of each mixed product, its own pest and total amount unit.
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
  const checkInfection = (infection: PhytoRequest['infection'], at: string) => {
    if (infection) check(PEST_CATALOGUE[infection.kind], infection.id, `${at}.infection.id`);
  };
  const checkMeasure = (measure: PhytoRequest['mdt'], path: string) => {
    if (!measure || !check('UNIDADES_MEDIDA', String(measure.code), `${path}.code`)) return;
    const symbol = ctx.codes.units.get(measure.code)?.symbol ?? '';
    if (!sameSymbol(symbol, measure.symbol)) {
      out.push(
        violation(
          'MEASURE_MISMATCH',
          `${path}.symbol`,
          `unit code ${measure.code} is ${symbol}, not ${measure.symbol}`,
        ),
      );
    }
  };
  checkInfection(r.infection, 'body');
  r.tj?.forEach((t, i) => check('JUSTIFICACION_ACTUACION', t.id, `body.tj[${i}].id`));
  if (r.efficacy) check('EFICACIA_TRATAMIENTO', r.efficacy.id, 'body.efficacy.id');
  for (const field of ['mdt', 'mst'] as const) checkMeasure(r[field], `body.${field}`);
  r.mix?.forEach((item, i) => {
    checkInfection(item.infection, `body.mix[${i}]`);
    checkMeasure(item.mdt, `body.mix[${i}].mdt`);
  });
  r.machine?.forEach((m, i) => check('TIPO_MAQUINA_UNE', m.id, `body.machine[${i}].id`));
  if (r.phenology) check('EST_FENOLOGICO', r.phenology.id, 'body.phenology.id');
  return out;
}
