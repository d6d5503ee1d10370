import { Violation } from '../domain/errors';
import { phytoViolation } from './errors';
import { RuleContext } from './rule-context';

/**
 * The units FEGA's descriptor lists as valid for a measure's quantity (Anexo V, `OtrasActuacionesFito` fields 17-18,
 * "unidades válidas"): Unidades, uds./m2, uds./ha, m2, m2 malla/ha, kg, kg/ha.
 */
const MEASURE_UNITS: ReadonlySet<number> = new Set([11, 15, 16, 1, 28, 5, 17]);

/**
 * The measures whose means FEGA's descriptor asks the number of in the Registro de determinados Medios de Defensa
 * Fitosanitaria (Anexo V, `OtrasActuacionesFito.NumRegistroMDF`, field 19, obligatory for them): 1 release of
 * beneficial organisms, 14 traps and others, 15 pheromones and attractants for monitoring.
 */
const MDF_MEASURES: ReadonlySet<string> = new Set(['1', '14', '15']);

/**
 * A non-chemical measure (RD 1311/2012 Anexo III; CUE `TratamFito.OtrasActuacionesFito`) says how much in a unit FEGA
 * lists for it, and names the registered means where FEGA asks for it. Its codes are checked with the others
 * (code-rules.ts); a unit that is no SIEX code is reported there, not again here.
 */
export function measureRules(ctx: RuleContext): Violation[] {
  const m = ctx.treatment.otherMeasure;
  if (!m) return [];
  const out: Violation[] = [];
  if (!MEASURE_UNITS.has(m.unit.code) && ctx.codes.units.get(m.unit.code))
    out.push(
      phytoViolation(
        'MEASURE_QUANTITY_UNIT',
        'body.otherMeasure.measure.code',
        `unit ${m.unit.code} (${m.unit.symbol}) is not one FEGA lists for a measure: 11, 15, 16, 1, 28, 5 or 17`,
      ),
    );
  if (MDF_MEASURES.has(m.measure.code) && m.mdfRegistration === null)
    out.push(
      phytoViolation(
        'MDF_REGISTRATION_REQUIRED',
        'body.otherMeasure.mdfRegistration',
        `measure ${m.measure.code} names the means' number in the Registro de Medios de Defensa Fitosanitaria`,
      ),
    );
  return out;
}
