import { Violation } from '../domain/errors';
import { phytoViolation } from './errors';
import { fourDecimals } from '../rules/area-rules';

/**
 * A ceiling on the spray volume, litres of mixture per treated hectare. The labels of the official register state
 * volumes well below it (MICROTHIOL SPECIAL DISPERSS, ES-11179: 500-1500 L/ha on vine, 500-1333 L/ha on olive, in
 * the register snapshot of 2026-08-14); 5,000 L/ha is the figure issue 23 sets, above what any hydraulic or air-blast
 * sprayer puts on a hectare, so a figure beyond it is a typing error (litres for a tank, hectares for m2), not a
 * treatment.
 */
const MAX_SPRAY_LITRES_PER_HA = 5_000;

export function sprayVolumeRules(litresPerHa: number | undefined, soup: string | null): Violation[] {
  if (litresPerHa === undefined || !(litresPerHa > MAX_SPRAY_LITRES_PER_HA)) return [];
  return [
    phytoViolation(
      'SPRAY_VOLUME_ABOVE_MAX',
      'body.soup',
      `${soup} L of mixture is ${fourDecimals(litresPerHa)} L/ha, above the ${MAX_SPRAY_LITRES_PER_HA.toLocaleString('en')} L/ha ceiling`,
    ),
  ];
}
