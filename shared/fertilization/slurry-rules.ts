import { Violation } from '../domain/errors';
import { fertilizationViolation } from './errors';
import { Fertilization } from './fertilization';
import { isSlurry } from './material-kinds';

/**
 * Slurry (purines) and the other liquid manures may no longer be spread by splash plate, fan or cannon, the broadcast
 * ways that lose most ammonia: RD 1051/2022 (BOE-A-2022-23052) bans them from 1 January 2024, as every summary of the
 * decree read for issue 25 says. The article and paragraph could not be confirmed: the BOE's text and its consolidated
 * version (https://www.boe.es/eli/es/rd/2022/12/27/1051/con, amended by RD 840/2024, BOE-A-2024-17371) were reachable
 * only in part from here, and none of the parts read holds the ban, so no article is cited rather than a guessed one.
 *
 * What the gateway judges is what the record shows. METODO_APLICACION_FERTILIZANTE says how it was spread: broadcast
 * (1, 2: general spreading, with or without later burial), sprinkler fertigation (5) or foliar (7) must declare one of
 * the techniques FEGA's BUENAS_PRACTICAS_AMBITOS (scope Fertilización) names for slurry; a localised method (3, 4: the
 * bands themselves) or drip fertigation (6) is accepted as it is.
 *
 * Not judged, and why (README, "What the gateway does not judge"): the exceptions a regional rule grants plate or fan
 * (Asturias: SIGPAC enclosures of at most 0.5 ha, average slopes of 10 to 20 %, mountain municipalities, cattle slurry
 * from a closed, covered tank spread on a day whose mean temperature is below 12 °C) were not found in the decree's
 * text either, and the gateway has neither terrain, weather nor storage data; the enclosure's area it has, but does
 * not grant an exception it cannot source. Such a record must still declare an accepted technique or a localised
 * method.
 */
const LOCALISED_METHODS: ReadonlySet<number> = new Set([3, 4, 6]);

/**
 * The accepted techniques, BUENAS_PRACTICAS_AMBITOS's own rows: bands with hoses or rigid tubes (1), bands with discs
 * or shares (2), injection (3), deep injection (8), burial "lo antes posible y siempre en las primeras 4 horas tras su
 * aplicación" (15). The 4 hours are that catalogue's, what the CUE records; the decree's own hours were not confirmed.
 */
const ACCEPTED_SLURRY_PRACTICES: readonly number[] = [1, 2, 3, 8, 15];

export function slurryRules(f: Fertilization): Violation[] {
  if (!isSlurry(f.material.code, f.material.treatment) || LOCALISED_METHODS.has(f.method)) return [];
  if (f.goodPractices.some((g) => ACCEPTED_SLURRY_PRACTICES.includes(g))) return [];
  return [
    fertilizationViolation(
      'SLURRY_METHOD_NOT_ALLOWED',
      'body.method.id',
      `slurry (MAT_FERTI ${f.material.code}) spread by method ${f.method} needs a good practice RD 1051/2022 ` +
        `accepts: ${ACCEPTED_SLURRY_PRACTICES.join(', ')} (bands, injection, burial within 4 hours), or a localised method (3, 4, 6)`,
    ),
  ];
}
