import { DateTime } from 'luxon';
import { CodeCheck } from '../catalog/siex-codes/code-check';
import { SiexCodes } from '../catalog/siex-codes/siex-codes';
import { Violation, violation } from '../domain/errors';
import { Harvest } from './harvest';

/** UNIDADES_MEDIDA 40 CV and 41 kW: the units CUE `Maquinaria.PotenciaMaquinaria` is stated in. */
const POWER_UNITS: ReadonlySet<number> = new Set([40, 41]);

/**
 * Every code of a harvest is one of its SIEX catalogue in force on the first day of the harvest (Anexo VII of FEGA's
 * SIEX documentation): the plant product (PROD_VEGETAL), its purposes (DEST_COSECHA), residue destinations
 * (DEST_RES_VEG), the units (UNIDADES_MEDIDA) and the machine's UNE type and energy (TIPO_MAQUINA_UNE, TIPENERGIA).
 */
export function harvestCodeRules(h: Harvest, codes: SiexCodes, on: DateTime): Violation[] {
  const check = new CodeCheck(codes, on);
  check.code('PROD_VEGETAL', h.product, 'body.product.id');
  h.purposes.forEach((p, i) => check.code('DEST_COSECHA', p, `body.purpose[${i}].id`));
  h.residues.forEach((r, i) => check.code('DEST_RES_VEG', r, `body.residue[${i}].id`));
  check.measure(h.unit, 'body.measure');
  if (h.machine) {
    check.code('TIPO_MAQUINA_UNE', h.machine.une, 'body.machine.id');
    check.code('TIPENERGIA', h.machine.energy, 'body.machine.energy.id');
    check.measure(h.machine.powerUnit, 'body.machine.powerMeasure');
  }
  const violations = [...check.violations];
  if (h.machine && !POWER_UNITS.has(h.machine.powerUnit.code))
    violations.push(
      violation(
        'MEASURE_MISMATCH',
        'body.machine.powerMeasure.code',
        `a machine's power is in CV (40) or kW (41), not ${h.machine.powerUnit.symbol}`,
      ),
    );
  return violations;
}
