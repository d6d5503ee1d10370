/** Spanish personal tax ids: DNI-based NIF (8 digits + letter) and NIE (X/Y/Z + 7 digits + letter). */
const LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';
const NIF_RE = /^(\d{8})([A-Z])$/;
const NIE_RE = /^([XYZ])(\d{7})([A-Z])$/;

/** Uppercased and without spaces or hyphens, the form ids are compared and stored in. */
export function normalizeNif(text: string): string {
  return text.replace(/[\s-]/g, '').toUpperCase();
}

/** True when the text is a NIF or NIE whose control letter matches its number. */
export function isValidPersonalNif(text: string): boolean {
  const nif = normalizeNif(text);
  const dni = NIF_RE.exec(nif);
  if (dni) return LETTERS[Number(dni[1]) % 23] === dni[2];
  const nie = NIE_RE.exec(nif);
  if (nie) {
    const number = Number(`${'XYZ'.indexOf(nie[1]!)}${nie[2]}`);
    return LETTERS[number % 23] === nie[3];
  }
  return false;
}

/** ROPO card number as the spec writes it: `ES-` and eight digits. */
export const ROPO_RE = /^ES-\d{8}$/;

/** Product registration code as the API writes it: `ES-` and five digits. */
export const PRODUCT_CODE_RE = /^ES-\d{5}$/;

/** Regional holding register (REA) code as clients look farms up by it: letters and digits. */
export const REA_RE = /^[A-Za-z0-9]{1,20}$/;
