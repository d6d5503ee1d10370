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

const ENTITY_RE = /^([ABCDEFGHJNPQRSUVW])(\d{7})([0-9A-J])$/;

/**
 * True when the text is a company's or other entity's NIF (the old CIF: a letter for its legal form, seven digits and a
 * control character, Orden EHA/451/2008 and RD 1065/2007 art. 22) whose control matches: a digit for A, B, E and H, a
 * letter (J for 0 to I for 9) for N, P, Q, R, S and W, either for the rest.
 */
export function isValidEntityNif(text: string): boolean {
  const m = ENTITY_RE.exec(normalizeNif(text));
  if (!m) return false;
  const [, form, digits, control] = m as unknown as [string, string, string, string];
  let sum = 0;
  for (let i = 0; i < 7; i++) {
    const d = Number(digits[i]);
    // Odd positions (first, third...) are doubled and their digits added.
    sum += i % 2 === 0 ? Math.floor((d * 2) / 10) + ((d * 2) % 10) : d;
  }
  const check = (10 - (sum % 10)) % 10;
  const letter = 'JABCDEFGHI'[check];
  if ('ABEH'.includes(form)) return control === String(check);
  if ('NPQRSW'.includes(form)) return control === letter;
  return control === String(check) || control === letter;
}

/** True for any valid NIF: a person's (NIF or NIE) or an entity's. */
export function isValidNif(text: string): boolean {
  return isValidPersonalNif(text) || isValidEntityNif(text);
}

/** ROPO card number as the spec writes it: `ES-` and eight digits. */
export const ROPO_RE = /^ES-\d{8}$/;

/** Product registration code as the API writes it: `ES-` and five digits. */
export const PRODUCT_CODE_RE = /^ES-\d{5}$/;

/** Regional holding register (REA) code as clients look farms up by it: letters and digits. */
export const REA_RE = /^[A-Za-z0-9]{1,20}$/;
