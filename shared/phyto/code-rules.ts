import { CatalogueName } from '../catalog/siex-codes/catalogues';
import { PEST_CATALOGUE } from '../catalog/siex-codes/siex-codes';
import { Violation, violation } from '../domain/errors';
import { RuleContext } from './rule-context';

/** The optional SIEX fields carry codes of the official catalogues, in force on the application date. */
export function codeRules(ctx: RuleContext): Violation[] {
  const { request: r, appliedAt: on } = ctx;
  const out: Violation[] = [];
  const check = (catalogue: CatalogueName, code: string, path: string) => {
    if (!ctx.codeInForce(catalogue, code, on)) {
      out.push(
        violation(
          'UNKNOWN_SIEX_CODE',
          path,
          `${code} is not a code of the SIEX catalogue ${catalogue} in force on that date`,
        ),
      );
    }
  };
  if (r.infection) check(PEST_CATALOGUE[r.infection.kind], r.infection.id, 'body.infection.id');
  r.tj?.forEach((t, i) => check('JUSTIFICACION_ACTUACION', t.id, `body.tj[${i}].id`));
  if (r.efficacy) check('EFICACIA_TRATAMIENTO', r.efficacy.id, 'body.efficacy.id');
  if (r.mdt) check('UNIDADES_MEDIDA', String(r.mdt.code), 'body.mdt.code');
  if (r.mst) check('UNIDADES_MEDIDA', String(r.mst.code), 'body.mst.code');
  return out;
}
