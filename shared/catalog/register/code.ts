/**
 * From the register's `Num_Registro` to the API's product code `ES-XXXXX` (`^ES-\d{5}$`).
 *
 * The register holds two numberings: legacy numbers, plain digits (`11179`, `25999`), given before the EU procedure,
 * and `ES-` numbers (`ES-00064`, `ES-02112`) given since. The API has one form, so:
 *   - `ES-` numbers keep their digits: `ES-00064` -> `ES-00064` (also written `ES00064`, `es-64`: zero-padded to 5);
 *   - legacy numbers take the `ES-` prefix: `11179` -> `ES-11179`; shorter ones are zero-padded (`2309` -> `ES-02309`);
 *   - leading zeros beyond five digits are dropped (`ES-000064` -> `ES-00064`, `011179` -> `ES-11179`);
 *   - more than five significant digits cannot be written as `ES-XXXXX`: the product is reported, not imported
 *     (no such number exists today; inventing a shorter code could name another product).
 * The two numberings can meet: legacy `64` and `ES-00064` both give `ES-00064`. The importer keeps the `ES-` product
 * and reports the legacy one (see `import-register.ts`); real legacy numbers today are five digits (10000 and up).
 */
export type RegisterCode =
  { ok: true; code: string; numbering: 'es' | 'legacy'; raw: string } | { ok: false; raw: string; reason: string };

export function registerCode(numRegistro: string | number): RegisterCode {
  const raw = String(numRegistro).trim();
  const compact = raw.replace(/\s+/g, '').toUpperCase();
  const m = /^(ES-?)?(\d+)$/.exec(compact);
  if (!m) return { ok: false, raw, reason: 'not a registration number (digits, or ES- and digits)' };
  const significant = m[2]!.replace(/^0+(?=\d)/, '');
  if (significant.length > 5) {
    return { ok: false, raw, reason: 'more than 5 significant digits: cannot be written as ES-XXXXX' };
  }
  return { ok: true, code: `ES-${significant.padStart(5, '0')}`, numbering: m[1] ? 'es' : 'legacy', raw };
}
