import { UnitCatalogue } from '../../shared/catalog/unit-catalogue';
import {
  convertDose,
  needsSprayVolume,
  sameSymbol,
  unitDimension,
  UnitDimension,
  unitName,
} from '../../shared/domain/units';
import { officialCatalogues, officialCodes } from './catalog-fixtures';

const dim = (symbol: string): UnitDimension => {
  const d = unitDimension(symbol);
  if (!d) throw new Error(`no dimension for ${symbol}`);
  return d;
};
const convert = (value: number, from: string, to: string, spray?: number) =>
  convertDose(value, dim(from), dim(to), spray);

describe('unit dimensions, read from the symbol', () => {
  it('converts mass and volume per area, per hectare and per square metre alike', () => {
    expect(convert(0.5, 'g/m2', 'kg/ha')).toBeCloseTo(5, 12);
    expect(convert(30, 'kg/ha', 'g/ha')).toBeCloseTo(30_000, 9);
    expect(convert(0.03, 't/ha', 'kg/ha')).toBeCloseTo(30, 12);
    expect(convert(1, 'L/m2', 'L/ha')).toBeCloseTo(10_000, 9);
    expect(convert(170, 'cc/ha', 'L/ha')).toBeCloseTo(0.17, 12);
    expect(convert(200, 'ml/ha', 'L/ha')).toBeCloseTo(0.2, 12);
    expect(convert(0.0005, 'kg/m2', 'kg/ha')).toBeCloseTo(5, 12);
    expect(convert(1, 'm3/ha', 'L/ha')).toBeCloseTo(1000, 9);
    // a mass is not a volume
    expect(convert(1, 'kg/ha', 'L/ha')).toBeNull();
  });

  it('converts concentrations: % is kilograms or litres per hectolitre, so it compares with both g/hL and cc/hL', () => {
    expect(convert(0.8, '%', 'g/hL')).toBeCloseTo(800, 9);
    expect(convert(250, 'cc/hL', '%')).toBeCloseTo(0.25, 12);
    expect(convert(1, 'Kg/Hl', '%')).toBeCloseTo(1, 12);
    expect(convert(0.3, 'l/hl', '%')).toBeCloseTo(0.3, 12);
    expect(convert(100, 'mg/L', 'g/hL')).toBeCloseTo(10, 12);
    expect(convert(500, 'g/hL', 'cc/hL')).toBeNull();
  });

  it('counts things per area, each thing apart: diffusers are not traps; singular and plural are one', () => {
    expect(convert(0.045, 'Difusores/m2', 'Difusores/ha')).toBeCloseTo(450, 9);
    expect(convert(50, 'Trampa/ha', 'Trampas/ha')).toBe(50);
    expect(convert(450, 'Difusores/ha', 'Trampas/ha')).toBeNull();
    expect(convert(450, 'Difusores/ha', 'Difusores/m3')).toBeNull();
  });

  it('compares a per-hectare dose with a concentration only through the spray volume per hectare', () => {
    expect(convert(8, 'kg/ha', '%')).toBeNull();
    expect(needsSprayVolume(dim('kg/ha'), dim('%'))).toBe(true);
    expect(needsSprayVolume(dim('Difusores/ha'), dim('%'))).toBe(false);
    expect(convert(8, 'kg/ha', '%', 1000)).toBeCloseTo(0.8, 12);
    expect(convert(0.8, '%', 'kg/ha', 1000)).toBeCloseTo(8, 12);
    expect(convert(8000, 'g/ha', 'g/hL', 1000)).toBeCloseTo(800, 9);
    expect(convert(8, 'kg/ha', 'cc/hL', 1000)).toBeNull();
    expect(convert(8, 'kg/ha', '%', 0)).toBeNull();
  });

  it('leaves units it cannot read (energy, money, time) to compare only with themselves', () => {
    for (const symbol of ['kWh', 'CV', '€/ha', 'Días', 'Trabajadores/as', 'cm', '(ver nota)', 'ml/planta/día'])
      expect([symbol, unitDimension(symbol)]).toEqual([symbol, undefined]);
    expect(unitDimension('kg')).toEqual({ measure: 'mass', per: null, factor: 1 });
    expect(unitDimension('ha')).toEqual({ measure: 'area', per: null, factor: 1 });
  });

  it('compares symbols without case, spaces or superscripts, and names units in words', () => {
    expect(sameSymbol('Unidades/m²', 'unidades / M2')).toBe(true);
    expect(sameSymbol('kg/ha', 'g/ha')).toBe(false);
    expect(unitName('kg/ha')).toBe('kilogramos por hectárea');
    expect(unitName('cc/hL')).toBe('centímetros cúbicos por hectolitro');
    expect(unitName('Difusores/ha')).toBe('difusores por hectárea');
    expect(unitName('%')).toBe('porcentaje');
    expect(unitName('kWh')).toBe('kWh');
  });
});

describe('the units catalogue (UNIDADES_MEDIDA)', () => {
  const units = officialCodes().units;

  it('holds every official code with its symbol, a name and, for the measurable ones, a dimension', () => {
    const official = officialCatalogues().UNIDADES_MEDIDA!;
    expect(units.list().map((u) => String(u.code))).toEqual(official.map((e) => e.code));
    expect(units.get(22)).toMatchObject({ code: 22, symbol: 'Difusores/ha', name: 'difusores por hectárea' });
    expect(units.get(80)?.dimension).toEqual({ measure: 'mass', per: 'area', factor: 10 });
    // every dose rate the register writes has a dimension: kg/ha to Trampas/m2
    for (const code of [14, 17, 18, 19, 22, 23, 24, 29, 49, 56, 59, 60, 61, 62, 63, 64, 65, 78, 79, 80])
      expect([code, units.get(code)?.dimension?.per]).toEqual([code, expect.any(String)]);
  });

  it('is in force by the Fecha de baja of each code', () => {
    const catalogue = new UnitCatalogue([
      { code: '1', name: 'kg/ha', from: '', modified: '', until: '2025-01-01' },
      { code: '2', name: 'L/ha', from: '', modified: '', until: '' },
    ]);
    expect(catalogue.inForce(1, '2024-12-31')).toBe(true);
    expect(catalogue.inForce(1, '2025-01-01')).toBe(false);
    expect(catalogue.inForce(2, '2099-01-01')).toBe(true);
    expect(catalogue.inForce(3, '2024-01-01')).toBe(false);
    expect(catalogue.list('2025-06-01').map((u) => u.code)).toEqual([2]);
  });

  it('places the register units on coded ones of the same kind, with the factor for their figures', () => {
    const place = (text: string) => {
      const p = units.place(text);
      return p && [p.unit.code, p.unit.symbol, p.factor];
    };
    expect(place('Kg/ha')).toEqual([17, 'kg/ha', 1]);
    expect(place('l/ha')).toEqual([18, 'L/ha', 1]);
    expect(place('g/Hl')).toEqual([65, 'g/hL', 1]);
    expect(place(' % ')).toEqual([14, '%', 1]);
    expect(place('cc/ha')).toEqual([18, 'L/ha', 0.001]);
    expect(place('ml/ha')).toEqual([18, 'L/ha', 0.001]);
    expect(place('Kg/Hl')).toEqual([14, '%', 1]);
    expect(place('l/hl')).toEqual([14, '%', 1]);
    expect(place('ml/hl')).toEqual([64, 'cc/hL', 1]);
    expect(place('gr/ha')).toEqual([49, 'g/ha', 1]);
    expect(place('difusores/ha')).toEqual([22, 'Difusores/ha', 1]);
    expect(place('Trampa/ha')).toEqual([24, 'Trampas/ha', 1]);
    expect(place('g/m2')).toEqual([80, 'g/m2', 1]);
    // nothing coded measures these: the import reports them
    expect(place('ml/planta')).toBeUndefined();
    expect(place('(ver nota)')).toBeUndefined();
    expect(place('')).toBeUndefined();
  });
});

describe('the register units of post-harvest, premises and seed uses (issue 34)', () => {
  const units = new UnitCatalogue(officialCatalogues().UNIDADES_MEDIDA!);
  const place = (text: string) => {
    const p = units.place(text);
    return p && [p.unit.code, p.unit.symbol, p.factor];
  };

  it('reads "Tm" as the tonne, so a dose per tonne of fruit or grain is one per kilogram: l/Tm is ml/kg', () => {
    // CITRASHINE N-IMZ 16232 (1 l/Tm of oranges), K-OBIOL ULV6 16786 (42-84 cc/Tm of grain)
    expect(convert(1, 'l/Tm', 'ml/kg')).toBeCloseTo(1, 12);
    expect(place('l/Tm')).toEqual([52, 'ml/kg', 1]);
    expect(place('cc/Tm')).toEqual([52, 'ml/kg', 0.001]);
  });

  it('reads a round amount after the slash: per 100 kg of seed, per 100 m2 of floor', () => {
    // KINTO PLUS ES-00712: 120-150 ml/100 kg de semillas is 1.2-1.5 ml per kg of seed
    expect(convert(120, 'ml/100 kg de semillas', 'ml/kg')).toBeCloseTo(1.2, 12);
    expect(place('ml/100 kg de semillas')).toEqual([52, 'ml/kg', 0.01]);
    // K-OBIOL EC 25 25710: 40-60 cc/100 m2 of a store's floor is 4-6 L/ha
    expect(convert(40, 'cc/100 m2', 'L/ha')).toBeCloseTo(4, 12);
    expect(place('cc/100 m2')).toEqual([18, 'L/ha', 0.1]);
  });

  it('still leaves units it cannot read unplaced, a round amount of them too', () => {
    // MAXIM 19684: tablets per 100 litres of water
    expect(place('Tabs./100 l agua')).toBeUndefined();
    expect(unitDimension('l/100 kilos')).toBeUndefined();
  });
});
