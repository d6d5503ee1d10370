/**
 * The SIEX catalogues are published as `;`-separated CSV in Windows-1252 with `"`-quoted fields (a quote inside a
 * field is doubled). Dates are `dd/mm/yyyy`. Pure functions only: reading files is the caller's job.
 */

/**
 * Windows-1252 differs from ISO-8859-1 only in 0x80-0x9F (€, curly quotes, dashes...). Node 20's
 * `TextDecoder('windows-1252')` decodes that range as ISO-8859-1 control characters, which turns the official unit
 * "€/ha" into "\u0080/ha"; so bytes are decoded as Latin-1 and this range is mapped here. Undefined bytes stay as is.
 */
const CP1252_HIGH: Record<number, string> = {
  0x80: '€',
  0x82: '‚',
  0x83: 'ƒ',
  0x84: '„',
  0x85: '…',
  0x86: '†',
  0x87: '‡',
  0x88: 'ˆ',
  0x89: '‰',
  0x8a: 'Š',
  0x8b: '‹',
  0x8c: 'Œ',
  0x8e: 'Ž',
  0x91: '‘',
  0x92: '’',
  0x93: '“',
  0x94: '”',
  0x95: '•',
  0x96: '–',
  0x97: '—',
  0x98: '˜',
  0x99: '™',
  0x9a: 'š',
  0x9b: '›',
  0x9c: 'œ',
  0x9e: 'ž',
  0x9f: 'Ÿ',
};

/** Windows-1252 bytes as text; a file re-saved as UTF-8 with a BOM is read as UTF-8. */
export function decodeCatalogue(bytes: Uint8Array): string {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return new TextDecoder('utf-8').decode(bytes.subarray(3));
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('latin1')
    .replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0)] ?? c);
}

/**
 * RFC 4180-style parsing with a configurable separator: quoted fields may hold separators, doubled quotes and line
 * breaks; lines end with LF or CRLF; blank lines are skipped.
 */
export function parseCsv(text: string, separator = ';'): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const endRow = () => {
    row.push(field);
    if (row.length > 1 || row[0] !== '') rows.push(row);
    row = [];
    field = '';
  };
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else {
        field += c;
      }
      i++;
      continue;
    }
    if (c === '"') quoted = true;
    else if (c === separator) {
      row.push(field);
      field = '';
    } else if (c === '\n') endRow();
    else if (c !== '\r') field += c;
    i++;
  }
  if (field !== '' || row.length > 0) endRow();
  return rows;
}

/** `dd/mm/yyyy` as the ISO day `yyyy-mm-dd` (sorts and compares as text), '' for an empty cell, null when malformed. */
export function catalogueDay(text: string): string | null {
  const t = text.trim();
  if (t === '') return '';
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t);
  if (!m) return null;
  const [day, month, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
