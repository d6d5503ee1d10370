import { isRate, measuresMatch, symbolKey, unitDimension, UnitDimension, unitName } from '../domain/units';
import { SiexCode } from './siex-codes/catalogues';

/** A unit of SIEX's catalogue UNIDADES_MEDIDA: every code is a valid CUE `Unidad`. */
export interface CatalogueUnit {
  code: number;
  symbol: string;
  /** In words, for people ("kilogramos por hectárea"); the symbol when the unit has no reading. */
  name: string;
  /** How it compares with other units; undefined for units compared only with themselves (kWh, €/ha). */
  dimension?: UnitDimension;
  /** ISO day from which the code is no longer valid ('' while in force). */
  until: string;
}

/** A register unit placed on a coded unit: multiply the register's figures by `factor` to express them in `unit`. */
export interface PlacedUnit {
  unit: CatalogueUnit;
  factor: number;
}

/** A figure of a unit placed on a coded one, in that coded unit (to 12 significant digits: no binary noise). */
export function inPlacedUnit(value: number, placed: PlacedUnit): number {
  return placed.factor === 1 ? value : Number((value * placed.factor).toPrecision(12));
}

/**
 * The units catalogue as the rules, the register import and the catalogue endpoints use it: each code with its
 * symbol, name and dimension, its validity on a day, and where a unit written in words by the register (cc/ha,
 * Trampa/ha, Kg/Hl) belongs among the coded ones.
 */
export class UnitCatalogue {
  private readonly byCode = new Map<number, CatalogueUnit>();
  /** The register repeats a few dozen unit texts across 60,000 uses: each is placed once. */
  private readonly placed = new Map<string, PlacedUnit | undefined>();

  constructor(entries: readonly SiexCode[]) {
    for (const e of entries) {
      const code = Number(e.code);
      if (!Number.isInteger(code) || code <= 0) continue;
      const dimension = unitDimension(e.name);
      this.byCode.set(code, {
        code,
        symbol: e.name,
        name: unitName(e.name),
        ...(dimension ? { dimension } : {}),
        until: e.until,
      });
    }
  }

  get(code: number): CatalogueUnit | undefined {
    return this.byCode.get(code);
  }

  /** In force on `isoDay` (`YYYY-MM-DD`): known, and not past its Fecha de baja. */
  inForce(code: number, isoDay: string): boolean {
    const unit = this.byCode.get(code);
    return unit !== undefined && (!unit.until || unit.until > isoDay);
  }

  /** The units in force on `isoDay` (every unit without a day), by code. */
  list(isoDay?: string): CatalogueUnit[] {
    return [...this.byCode.values()]
      .filter((u) => isoDay === undefined || this.inForce(u.code, isoDay))
      .sort((a, b) => a.code - b.code);
  }

  /**
   * The coded unit for a unit written freely (`Kg/ha`, `cc/ha`, `Trampa/ha`, `Kg/Hl`), with the factor that converts
   * figures into it. A unit in force with the same symbol wins; then one that measures the same thing per the same
   * thing, with the factor nearest 1: cc/ha goes to L/ha (not cc/m2), kg/hL to % (not g/hL), Trampa/ha to Trampas/ha.
   * Undefined when no coded unit measures the same thing: the caller reports it.
   */
  place(text: string): PlacedUnit | undefined {
    if (!this.placed.has(text)) this.placed.set(text, this.placeOnce(text));
    return this.placed.get(text);
  }

  private placeOnce(text: string): PlacedUnit | undefined {
    const inForce = this.list().filter((u) => !u.until);
    const same = inForce.find((u) => symbolKey(u.symbol) === symbolKey(text));
    if (same) return { unit: same, factor: 1 };
    const d = unitDimension(text);
    if (!isRate(d)) return undefined;
    const candidates = inForce.filter(
      (u) => isRate(u.dimension) && measuresMatch(u.dimension.measure, d.measure) && u.dimension.per === d.per,
    );
    const distance = (u: CatalogueUnit) => Math.abs(Math.log10(d.factor / u.dimension!.factor));
    const best = candidates.sort((a, b) => distance(a) - distance(b) || a.code - b.code)[0];
    if (!best) return undefined;
    return { unit: best, factor: Number((d.factor / best.dimension!.factor).toPrecision(12)) };
  }
}
