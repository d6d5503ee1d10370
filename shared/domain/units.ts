/**
 * What a unit of measure means, read from its symbol, so that doses in different units can be compared: SIEX's
 * catalogue (UNIDADES_MEDIDA) and the register write units as symbols ("kg/ha", "g/m2", "Difusores/ha", "cc/hL", "%"),
 * and every symbol is a quantity, optionally per something. A unit's dimension says what its numerator measures,
 * what it is per, and the factor to the base units: kilograms, litres, hectares, items; per hectare (area), per litre
 * of spray mixture (spray), per cubic metre of treated space or goods (space), per kilogram of treated goods (mass), per
 * item (a diffuser, a trap).
 *
 * The register writes concentrations as "%", meaning kilograms or litres of product per 100 litres of spray: 1 % is
 * 1 kg/hL (a solid) or 1 L/hL (a liquid), so a percentage compares with grams and with cubic centimetres per hectolitre,
 * which do not compare with each other (a mass is not a volume). Per-area and per-spray doses compare only when the
 * spray volume per hectare is known: 8 kg/ha in 1,000 L/ha is 0.8 %.
 *
 * Units this module cannot read (CV, kWh, €/ha, Días...) are still units: they compare only with themselves.
 */

/** What a numerator measures: `mass`, `volume`, `area`, `mass-or-volume` (%, ppm), or items: `count:difusor`. */
export type Measure = string;

/** What a dose is per: area, spray mixture, treated space, treated goods by mass, or an item (`item:difusor`). */
export type Per = 'area' | 'spray' | 'space' | 'mass' | `item:${string}`;

export interface UnitDimension {
  measure: Measure;
  /** null for an amount (kg, L, Difusores) or an area (ha, m2). */
  per: Per | null;
  /** Multiply a value by this to express it in base units (kg, L, ha, items; per ha, per L of spray, per m3, per kg). */
  factor: number;
}

interface Token {
  measure: Measure;
  factor: number;
  /** What the token means after a slash, when it can be a denominator. */
  per?: Per;
  singular: string;
  plural: string;
}

const MASS = (factor: number, singular: string): Token => ({
  measure: 'mass',
  factor,
  per: 'mass',
  singular,
  plural: `${singular}s`,
});
const VOLUME = (factor: number, singular: string, plural = `${singular}s`): Token => ({
  measure: 'volume',
  factor,
  singular,
  plural,
});
const AREA = (factor: number, singular: string, plural: string): Token => ({
  measure: 'area',
  factor,
  per: 'area',
  singular,
  plural,
});

/** Quantity symbols, lower case. Mass in kg, volume in L, area in ha. */
const TOKENS: Record<string, Token> = {
  mg: MASS(1e-6, 'miligramo'),
  g: MASS(1e-3, 'gramo'),
  gr: MASS(1e-3, 'gramo'),
  kg: MASS(1, 'kilogramo'),
  t: MASS(1000, 'tonelada'),
  /** The register's tonne ("l/Tm", "cc/Tm": per tonne of grain or fruit treated). */
  tm: MASS(1000, 'tonelada'),
  ml: { ...VOLUME(1e-3, 'mililitro'), per: 'spray' },
  cc: VOLUME(1e-3, 'centímetro cúbico', 'centímetros cúbicos'),
  cm3: VOLUME(1e-3, 'centímetro cúbico', 'centímetros cúbicos'),
  l: { ...VOLUME(1, 'litro'), per: 'spray' },
  hl: { ...VOLUME(100, 'hectolitro'), per: 'spray' },
  m3: { ...VOLUME(1000, 'metro cúbico', 'metros cúbicos'), per: 'space' },
  ha: AREA(1, 'hectárea', 'hectáreas'),
  m2: AREA(1e-4, 'metro cuadrado', 'metros cuadrados'),
};

/**
 * Things counted per area or per volume (pheromone diffusers, traps, plants); plural forms and case do not matter, so
 * the register's "Trampa/ha" is SIEX's "Trampas/ha".
 */
const ITEMS: Record<string, string> = {
  unidad: 'unidades',
  individuo: 'individuos',
  planta: 'plantas',
  difusor: 'difusores',
  dispensador: 'dispensadores',
  tableta: 'tabletas',
  trampa: 'trampas',
};

/** Concentrations without a written denominator: per litre of spray, of a product measured by mass or by volume. */
const RATIOS: Record<string, { factor: number; name: string }> = {
  '%': { factor: 0.01, name: 'porcentaje' },
  ppm: { factor: 1e-6, name: 'partes por millón' },
};

/** Lower case, no spaces, ² and ³ as digits: `L / Ha`, `l/ha` and `L/ha` are one symbol; so are `Unidades/m²` and `/m2`. */
export function symbolKey(symbol: string): string {
  return symbol.replace(/\s+/g, '').replace(/²/g, '2').replace(/³/g, '3').toLowerCase();
}

/** Symbols compare without regard to case, spaces or superscripts. */
export function sameSymbol(a: string, b: string): boolean {
  return symbolKey(a) === symbolKey(b);
}

function singularItem(word: string): string | undefined {
  const w = word.toLowerCase();
  if (ITEMS[w]) return w;
  return Object.keys(ITEMS).find((s) => ITEMS[s] === w);
}

/** The numerator: a quantity token, or counted items with an optional qualifier ("Unidades de semilla", "m2 malla"). */
function numeratorOf(text: string): { measure: Measure; factor: number } | undefined {
  const words = text.trim().toLowerCase().replace(/²/g, '2').replace(/³/g, '3').split(/\s+/);
  const [head = '', ...rest] = words;
  const qualifier = rest.join(' ');
  const token = TOKENS[head];
  if (token) return { measure: qualifier ? `${token.measure}:${qualifier}` : token.measure, factor: token.factor };
  const item = singularItem(head);
  if (item) return { measure: `count:${qualifier ? `${item} ${qualifier}` : item}`, factor: 1 };
  return undefined;
}

/**
 * What a dose is per: a unit ("ha", "hL", "Tm", "difusor"), or a round amount of one, with what is weighed or measured
 * ("100 kg de semillas", "100 m2": the register's seed-dressing and premises doses), per the unit times the amount.
 */
function denominatorOf(text: string): { per: Per; factor: number } | undefined {
  const [, amount, unit] = /^(\d+)\s*(\S+)(?:\s+de\s.*)?$/.exec(text.trim().toLowerCase()) ?? [];
  const count = amount ? Number(amount) : 1;
  const key = symbolKey(unit ?? text);
  const token = TOKENS[key];
  if (token?.per) return { per: token.per, factor: token.factor * count };
  const item = singularItem(key);
  return item ? { per: `item:${item}`, factor: count } : undefined;
}

/** The dimension of a unit symbol, or undefined for one this module cannot read (it then compares only with itself). */
export function unitDimension(symbol: string): UnitDimension | undefined {
  const key = symbolKey(symbol);
  const ratio = RATIOS[key];
  if (ratio) return { measure: 'mass-or-volume', per: 'spray', factor: ratio.factor };
  const parts = symbol.split('/');
  if (parts.length > 2) return undefined;
  const numerator = numeratorOf(parts[0] ?? '');
  if (!numerator) return undefined;
  if (parts.length === 1) return { ...numerator, per: null };
  const denominator = denominatorOf(parts[1] ?? '');
  if (!denominator) return undefined;
  return { measure: numerator.measure, per: denominator.per, factor: numerator.factor / denominator.factor };
}

/** A dose rate: something per area, spray, space, mass of goods or item (not an amount, an area or an unreadable unit). */
export function isRate(d: UnitDimension | undefined): d is UnitDimension & { per: Per } {
  return d?.per != null;
}

/** Two numerators compare: the same measure, or a percentage (mass or volume) against a mass or a volume. */
export function measuresMatch(a: Measure, b: Measure): boolean {
  if (a === b) return true;
  const either = (m: Measure) => m === 'mass-or-volume';
  const plain = (m: Measure) => m === 'mass' || m === 'volume';
  return (either(a) && (plain(b) || either(b))) || (either(b) && plain(a));
}

/**
 * `value` in `from` expressed in `to`, or null when they do not compare. A per-area dose and a per-spray dose compare
 * through the spray volume: `sprayLitresPerHa` litres of mixture per hectare.
 */
export function convertDose(
  value: number,
  from: UnitDimension,
  to: UnitDimension,
  sprayLitresPerHa?: number,
): number | null {
  if (!from.per || !to.per || !measuresMatch(from.measure, to.measure)) return null;
  const base = value * from.factor;
  if (from.per === to.per) return base / to.factor;
  if (!sprayLitresPerHa || !(sprayLitresPerHa > 0)) return null;
  if (from.per === 'area' && to.per === 'spray') return base / sprayLitresPerHa / to.factor;
  if (from.per === 'spray' && to.per === 'area') return (base * sprayLitresPerHa) / to.factor;
  return null;
}

/** Whether comparing these two needs the spray volume per hectare (one is per area, the other per litre of spray). */
export function needsSprayVolume(a: UnitDimension, b: UnitDimension): boolean {
  const pair = new Set([a.per, b.per]);
  return pair.has('area') && pair.has('spray') && measuresMatch(a.measure, b.measure);
}

/**
 * The unit's name in words, for people ("kilogramos por hectárea"), or the symbol when it has no reading here: SIEX
 * publishes symbols only.
 */
export function unitName(symbol: string): string {
  const key = symbolKey(symbol);
  const ratio = RATIOS[key];
  if (ratio) return ratio.name;
  const [top = '', bottom] = symbol.split('/');
  const words = top.trim().toLowerCase().replace(/²/g, '2').split(/\s+/);
  const [head = '', ...rest] = words;
  const token = TOKENS[head];
  const item = singularItem(head);
  const upper = token ? token.plural : item ? ITEMS[item] : undefined;
  if (!upper) return symbol;
  const numerator = [upper, ...rest].join(' ');
  if (bottom === undefined) return numerator;
  const below = TOKENS[symbolKey(bottom)]?.singular ?? singularItem(symbolKey(bottom));
  return below ? `${numerator} por ${below}` : symbol;
}

/**
 * Dose comparisons tolerate floating-point noise from unit conversion (0.8 % = 800 g/hL must equal 0.8), but not a
 * real excess: the tolerance is a billionth of the limit.
 */
export function exceeds(value: number, limit: number): boolean {
  return value > limit * (1 + 1e-9) + 1e-12;
}

export function fallsShort(value: number, limit: number): boolean {
  return value < limit * (1 - 1e-9) - 1e-12;
}
