/**
 * What a log line may show of a person: a Spanish tax id masked, an e-mail address without its mailbox. Applied to
 * every text an event carries, so that words the gateway does not write itself (SIEX's descriptions of a refusal, an
 * error's message) cannot bring one in either.
 */

/** DNI-based NIF (8 digits and a letter), NIE (X/Y/Z, 7 digits, a letter) and a company's NIF (letter, 7, control). */
const TAX_ID = /\b(?:\d{8}[A-Z]|[XYZ]\d{7}[A-Z]|[ABCDEFGHJNPQRSUVW]\d{7}[0-9A-J])\b/gi;
const EMAIL = /[^\s@"'<>(),;:]+@([^\s@"'<>(),;:]+\.[^\s@"'<>(),;:]+)/g;

/**
 * A tax id as the LOPDGDD (Ley Orgánica 3/2018, disposición adicional séptima) allows it to be shown: the 4th to 7th
 * digits of a DNI, and for an NIE (or a company's NIF) the same four digits after its first letter; the rest hidden.
 * 12345678Z → ***4567**, X1234567L → ****4567*.
 */
export function maskTaxId(id: string): string {
  const from = /^\d/.test(id) ? 3 : 4;
  return `${'*'.repeat(from)}${id.slice(from, from + 4)}${'*'.repeat(Math.max(0, id.length - from - 4))}`;
}

/** An e-mail address with its mailbox hidden: the domain is enough to tell a client's mail service from another. */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  return at < 0 ? '***' : `***${address.slice(at)}`;
}

/** The text with every tax id masked and every e-mail address's mailbox hidden. */
export function maskPersonalData(text: string): string {
  return text.replace(TAX_ID, maskTaxId).replace(EMAIL, (_all, domain: string) => `***@${domain}`);
}
