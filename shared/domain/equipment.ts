/**
 * A machine a record names: its UNE type (SIEX catalogue TIPO_MAQUINA_UNE), its name, its ROMA number ('' when it has
 * none) or else the ERP's own reference, and the days an inspector holds it to (DD-MM-YYYY; '' when not given).
 */
export interface Machine {
  une: string;
  name: string;
  roma: string;
  ref: string;
  inspection: string;
  registered?: string;
}

/**
 * The UNE machine types (SIEX catalogue TIPO_MAQUINA_UNE, data/siex/catalogues) that are worked by hand: a treatment
 * with one of them is a manual application (CUE `AplicacionManual: true`). Every type of that catalogue whose name
 * says backpack (mochila) or manual, among the applicators of plant protection products (group 0603):
 */
export const HAND_HELD_UNE_TYPES: ReadonlyMap<string, string> = new Map([
  ['060303013', 'Pulverizadores hidráulicos de mochila'],
  ['060303044', 'Pulverizadores centrífugos manuales'],
  // pushed and worked by hand (a lance on a wheelbarrow tank)
  ['0630311_88', 'Pulverizadores hidráulicos de carretilla (ar. Manual)'],
]);

export function isHandHeld(uneType: string): boolean {
  return HAND_HELD_UNE_TYPES.has(uneType);
}

/** A machine as records and requests write it (NGSI-LD `Machine`): `id` is its UNE type. */
export interface MachineDocument {
  type: 'Machine';
  id: string;
  name: string;
  roma: string;
  inspection: string;
  registered?: string;
  ref: string;
}
