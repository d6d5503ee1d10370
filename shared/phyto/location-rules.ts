import { Violation, violation } from '../domain/errors';
import { IdcpEntry } from '../farms/farm-index';
import { RuleContext } from './rule-context';

/** Every idcp must be one the identifier operation gave for this farm campaign; the unknown ones are listed. */
export function resolveLocations(ctx: { farm: RuleContext['farm']; request: { idcp: readonly (string | number)[] } }): {
  entries: IdcpEntry[];
  violations: Violation[];
} {
  const entries: IdcpEntry[] = [];
  const violations: Violation[] = [];
  ctx.request.idcp.forEach((text, i) => {
    const entry = ctx.farm.byIdcp.get(Number(text));
    if (entry) entries.push(entry);
    else
      violations.push(
        violation(
          'IDCP_NOT_FOUND',
          `body.idcp[${i}]`,
          `idcp ${text} is not a crop location of this farm; regenerate it with listidcp`,
        ),
      );
  });
  return { entries, violations };
}
