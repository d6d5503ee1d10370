import { SiexCodes } from '../siex-codes/siex-codes';

/**
 * The register writes dose units freely ("Kg/ha", "l/ha", "g/Hl", "cc/hl", "difusores/ha"); SIEX has a catalogue.
 * Most match by symbol ignoring case (`SiexCodes.unitBySymbol`). The rest are exact equivalents of a SIEX unit,
 * with the factor the dose is multiplied by: a litre or a kilogram per hectolitre of spray is one percent.
 * A unit in neither list is reported by the import and stored with code 0 and the register's symbol.
 */
const EQUIVALENTS: Record<string, { symbol: string; factor: number }> = {
  'l/hl': { symbol: '%', factor: 1 },
  'kg/hl': { symbol: '%', factor: 1 },
  'ml/hl': { symbol: 'cc/hL', factor: 1 },
  'cm3/hl': { symbol: 'cc/hL', factor: 1 },
  'gr/hl': { symbol: 'g/hL', factor: 1 },
  'gr/ha': { symbol: 'g/ha', factor: 1 },
};

export interface DoseUnit {
  code: number;
  symbol: string;
  factor: number;
}

export function doseUnit(registerUnit: string, codes: SiexCodes): DoseUnit | undefined {
  const key = registerUnit.replace(/\s+/g, '').toLowerCase();
  const equivalent = EQUIVALENTS[key];
  const unit = codes.unitBySymbol(equivalent?.symbol ?? registerUnit);
  if (!unit) return undefined;
  return { code: Number(unit.code), symbol: unit.name, factor: equivalent?.factor ?? 1 };
}
