/** Windows-1252 text as bytes; every character these edits add is below 0x80 or in Latin-1. */
export const cp1252 = (text: string): Buffer => Buffer.from(text, 'latin1');

/**
 * A newer UNIDADES_MEDIDA.csv made from the official one, the way FEGA changes a catalogue: it end-dates unit 82,
 * renames 81, adds 83 and (unusually) drops 80 from the file.
 */
export function newerUnitsCatalogue(official: Buffer): Buffer {
  const lines = official.toString('latin1').split('\n');
  const edited = lines
    .filter((l) => !l.startsWith('"80";'))
    .map((l) => (l.startsWith('"82";') ? l.replace(/;;$/, ';01/07/2026;30/06/2026') : l))
    .map((l) => (l.startsWith('"81";') ? l.replace('"cc/m3"', '"cm3/m3"') : l));
  while (edited[edited.length - 1]?.trim() === '') edited.pop();
  edited.push('"83";"L/100 m2";01/07/2026;;', '');
  return cp1252(edited.join('\n'));
}

/** A catalogue FEGA publishes that the gateway does not use. */
export const UNUSED_CATALOGUE = {
  file: 'TIPO_COBERTURA_SUELO.csv',
  bytes: cp1252(
    '"Código SIEX";"Tipo de cobertura del suelo";Fecha de alta;Fecha de modificación;Fecha de baja\n"1";"Suelo desnudo";01/02/2023;;\n',
  ),
};
