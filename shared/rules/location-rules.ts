import { Violation, violation } from '../domain/errors';
import { FarmIndex, IdcpEntry } from '../farms/farm-index';

/** Every idcp must be one the identifier operation gave for this farm campaign; the unknown ones are listed. */
export function resolveLocations(
  farm: FarmIndex,
  idcps: readonly number[],
): {
  entries: IdcpEntry[];
  violations: Violation[];
} {
  const entries: IdcpEntry[] = [];
  const violations: Violation[] = [];
  idcps.forEach((idcp, i) => {
    const entry = farm.byIdcp.get(idcp);
    if (entry) entries.push(entry);
    else
      violations.push(
        violation(
          'IDCP_NOT_FOUND',
          `body.idcp[${i}]`,
          `idcp ${idcp} is not a crop location of this farm; regenerate it with listidcp`,
        ),
      );
  });
  return { entries, violations };
}
