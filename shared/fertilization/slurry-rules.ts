import { Violation, violation } from '../domain/errors';
import { Fertilization } from './fertilization';
import { isSlurry } from './material-kinds';

/**
 * RD 1051/2022 (BOE-A-2022-23052), its rules on applying slurry (purines) and other liquid manures: slurry may no
 * longer be spread by splash plate, fan or cannon, the broadcast ways that lose most ammonia; it goes on in bands, is
 * injected, or is buried within the hours the decree sets. (Its art. 6 is the fertilization plan's content, not this
 * rule; the article number is left out until it is checked against the BOE text.) METODO_APLICACION_FERTILIZANTE says
 * how the record spread it, and BUENAS_PRACTICAS_AMBITOS (scope Fertilización) names the accepted techniques. So slurry
 * spread by a broadcast method (general spreading, with or without later burial, sprinkler or foliar) must declare one
 * of them; a localised method (3, 4: the bands themselves) or drip fertigation (6) is accepted as it is. The decree's
 * exceptions for steep enclosures (average slope above 10 %) are not judged: the back office has no slope data.
 */
const LOCALISED_METHODS: ReadonlySet<number> = new Set([3, 4, 6]);

/**
 * The accepted good practices: bands with hoses or rigid tubes (1), bands with discs or shares (2), injection (3),
 * deep injection (8), burial within 4 hours of spreading (15).
 */
const ACCEPTED_SLURRY_PRACTICES: readonly number[] = [1, 2, 3, 8, 15];

export function slurryRules(f: Fertilization): Violation[] {
  if (!isSlurry(f.material.code, f.material.treatment) || LOCALISED_METHODS.has(f.method)) return [];
  if (f.goodPractices.some((g) => ACCEPTED_SLURRY_PRACTICES.includes(g))) return [];
  return [
    violation(
      'SLURRY_METHOD_NOT_ALLOWED',
      'body.method.id',
      `slurry (MAT_FERTI ${f.material.code}) spread by method ${f.method} needs a good practice RD 1051/2022 ` +
        `accepts: ${ACCEPTED_SLURRY_PRACTICES.join(', ')} (bands, injection, burial within 4 hours), or a localised method (3, 4, 6)`,
    ),
  ];
}
