import fc from 'fast-check';
import { PhytoRecord } from '../../shared/phyto/wire-record';
import { FarmIndex, FarmIndexDoc, IdcpEntry } from '../../shared/farms/farm-index';
import { areaShares, locationsArea } from '../../shared/farms/treated-area';
import { buildRecord } from '../../shared/phyto/record-view';
import { treatmentFromWire } from '../../shared/phyto/wire-mapper';
import { mapRecord, TratamFito, treatmentCue } from '../../shared/phyto/cue-block';
import { blockKeysOf, cueDocument } from '../../shared/siex/cue-mapping';
import { blocksToSend } from '../../shared/records/cue-blocks';
import { CUE_FIELDS, cueNumber, descriptorProblems, leafCount, roundTo } from '../helpers/cue-descriptor';
import { cueValidator } from '../helpers/cue-schema';
import { farmMeta, madrid, microthiol } from '../helpers/phyto-fixtures';
import { propertyRuns } from '../helpers/property-runs';

/**
 * Issue 23, item 1: every CUE value in its descriptor's form, held by one table (shared/siex/cue-descriptor.ts), and
 * the area shares in hundredths; item 3: the crops' declared areas.
 */

const at = (pol: string, enc: string) => ({ prov: '46', town: '213', aggr: '0', zone: '0', pol, parc: '45', enc });

function entry(idcp: number, crop: number, where: ReturnType<typeof at>, dimension: string, area?: string): IdcpEntry {
  return {
    idcp,
    crop,
    parcelId: 1,
    parcelName: 'La Hoya',
    ...where,
    dimension,
    dgc: String(4600000000 + idcp),
    ...(area ? { area } : {}),
  };
}

/** Enclosure 12-1 (2.35 ha) with vine (1.50 ha declared) and olive (0.85 ha); 12-2 (1.1037 ha) with vine, undeclared. */
function farm(): FarmIndex {
  const doc: FarmIndexDoc = {
    meta: farmMeta(),
    crops: [
      { cropId: 1, typecropId: '102', typecropName: 'VIÑA', code: 1001, name: 'TEMPRANILLO' },
      { cropId: 2, typecropId: '101', typecropName: 'OLIVO', code: 2001, name: 'BLANQUETA' },
    ],
    idcps: [
      entry(1, 0, at('12', '1'), '2.35', '1.50'),
      entry(2, 1, at('12', '1'), '2.35', '0.85'),
      entry(3, 0, at('12', '2'), '1.1037'),
    ],
  };
  return new FarmIndex(doc);
}

function record(f: FarmIndex, extra: Record<string, unknown> = {}, idcp = ['1', '2', '3']): PhytoRecord {
  const product = microthiol();
  return buildRecord(
    7,
    treatmentFromWire({
      type: 'AgriPhytosanitary',
      dateApplication: '20-06-2026 15:27:09',
      subtype: { type: 'TypePhytosanitary', name: 'MICROTHIOL', code: 'ES-11179' },
      dose: 0.33333,
      measure: { type: 'Measure', name: '%', symbol: '%', code: 14 },
      idcp,
      applicator: { user: { type: 'UserMetadata', nif: '12345678Z', ropo: 'ES-46000123' } },
      infection: { type: 'TypeInfection', kind: 'enfermedad', id: '148', name: 'Oídio' },
      tj: [{ type: 'TypeJustification', id: '1', name: '' }],
      efficacy: { type: 'TypeEfficacy', id: '1', name: 'Buena', detail: '' },
      machine: [
        { type: 'Machine', id: '060303013', name: 'Mochila', roma: '', inspection: '', ref: 'M-1' },
        { type: 'Machine', id: '060303021', name: 'Atomizador', roma: 'ROMA-9', inspection: '', ref: '' },
      ],
      advisor: { type: 'UserMetadata', ropo: 'ES-46000777' },
      reviewed: '1',
      recipe: 'R-1',
      phenology: { type: 'TypePhenology', id: '7', name: '' },
      detail: 'nota',
      ...extra,
    }),
    product,
    { entries: idcp.map((i) => f.byIdcp.get(Number(i))!), uses: product.uses },
    f,
    false,
    madrid('20-06-2026 15:27:09'),
  );
}

/** A record registered now: its first crop and variety under its own id (7), each further one under a fresh id. */
function blocks(r: PhytoRecord, f: FarmIndex): TratamFito[] {
  const ids = Object.fromEntries(blockKeysOf(r.idcp, f).map((key, k) => [key, k === 0 ? 7 : 1000 + k]));
  const mapped = mapRecord(r, 7, f, ids);
  if (!mapped.ok) throw new Error(mapped.missing.join('; '));
  return mapped.blocks;
}

const superficies = (bs: TratamFito[]) =>
  bs.flatMap((b) => (b.DGCs as { CodigoDGC: number; Superficie: number }[]).map((d) => d.Superficie));

describe('the descriptor table', () => {
  it('holds every value of a document with every optional field the mapping writes, and each conforms', () => {
    const f = farm();
    const bs = blocks(record(f), f);
    const doc = cueDocument(f, {
      TratamFito: [...bs, ...blocksToSend(treatmentCue, bs, [99], false).slice(bs.length)],
    });
    expect(descriptorProblems(doc)).toEqual([]);
    expect(leafCount(doc)).toBeGreaterThan(60);
    const validate = cueValidator();
    expect(validate(doc) ? [] : validate.errors).toEqual([]);
    // every field the table names is written by this document, but Cantidad (not sent: one Unidad per line); the
    // Fertilizacion block's are written by its own test (fertilization-cue.test.ts), the Cosecha block's by
    // harvest-kind.test.ts, a measure's (OtrasActuacionesFito, excluding ProductosFito) by phyto-other-measure.test.ts
    const written = new Set(
      (function paths(v: unknown, p: string): string[] {
        if (Array.isArray(v)) return v.flatMap((x) => paths(x, p));
        if (v !== null && typeof v === 'object')
          return Object.entries(v).flatMap(([k, x]) => paths(x, p ? `${p}.${k}` : k));
        return [p];
      })(doc, ''),
    );
    const unwritten = Object.keys(CUE_FIELDS).filter(
      (k) =>
        !written.has(k) &&
        !k.includes('.Fertilizacion.') &&
        !k.includes('.Cosecha.') &&
        !k.includes('.OtrasActuacionesFito.'),
    );
    expect(unwritten.sort()).toEqual([
      'CUADERNO.ActividadesExplotacion.TratamFito.ProblematicaFito.ArtropodosGasteropodos.TipoPlaga',
      'CUADERNO.ActividadesExplotacion.TratamFito.ProblematicaFito.MalasHierbas.TipoMalaHierba',
      'CUADERNO.ActividadesExplotacion.TratamFito.ProblematicaFito.ReguladoresOtros.TipoRegulador',
      'CUADERNO.ActividadesExplotacion.TratamFito.ProductosFito.Cantidad',
    ]);
  });

  it("writes HoraTratamiento HH:MM:SS and Dosis to 3 decimals (the audit's findings)", () => {
    const f = farm();
    const [b] = blocks(record(f), f);
    expect(b.HoraTratamiento).toBe('15:27:09');
    expect((b.ProductosFito as { Dosis: number }[])[0].Dosis).toBe(0.333);
  });

  it('finds each kind of wrong value, and a value the table does not hold', () => {
    const T = 'CUADERNO[0].ActividadesExplotacion.TratamFito';
    const block = (o: Record<string, unknown>) => ({ CUADERNO: [{ ActividadesExplotacion: { TratamFito: [o] } }] });
    expect(descriptorProblems(block({ HoraTratamiento: '15:27' }))).toEqual([
      `${T}[0].HoraTratamiento (HoraTratamiento): "15:27" is shorter than 8`,
      `${T}[0].HoraTratamiento (HoraTratamiento): "15:27" does not match /^([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d$/`,
    ]);
    expect(descriptorProblems(block({ IdAjenaTratamFito: 10_000_000_003 }))).toEqual([
      `${T}[0].IdAjenaTratamFito (IdAjenaTratamFito): 10000000003 has more than 10 digits`,
    ]);
    expect(descriptorProblems(block({ DGCs: [{ Superficie: 1.6207 }] }))).toEqual([
      `${T}[0].DGCs[0].Superficie (Superficie): 1.6207 has more than 2 decimals`,
    ]);
    expect(descriptorProblems(block({ DGCs: [{ Superficie: 1_000_000 }] }))).toEqual([
      `${T}[0].DGCs[0].Superficie (Superficie): 1000000 does not fit number(8,2)`,
    ]);
    expect(descriptorProblems(block({ ProductosFito: [{ Dosis: 0.0005 }] }))).toEqual([
      `${T}[0].ProductosFito[0].Dosis (Dosis): 0.0005 has more than 3 decimals`,
    ]);
    expect(descriptorProblems(block({ Eficacia: '1' }))).toEqual([
      `${T}[0].Eficacia (Eficacia): "1" is not a non-negative integer`,
    ]);
    expect(descriptorProblems(block({ Inventado: 1 }))).toEqual([
      `${T}[0].Inventado (Inventado): not in the descriptor table`,
    ]);
    expect(descriptorProblems({ CUADERNO: [{ CodigoRea: 'ES46' }] })).toEqual([
      'CUADERNO[0].CodigoRea (CodigoRea): "ES46" is shorter than 14',
    ]);
  });

  it('rounds half away from zero at the field’s decimals, 1.005 included', () => {
    expect(cueNumber('CUADERNO.ActividadesExplotacion.TratamFito.DGCs.Superficie', 1.005)).toBe(1.01);
    expect(cueNumber('CUADERNO.ActividadesExplotacion.TratamFito.DGCs.Superficie', 2.675)).toBe(2.68);
    expect(cueNumber('CUADERNO.ActividadesExplotacion.TratamFito.ProductosFito.Dosis', 0.0005)).toBe(0.001);
    expect(cueNumber('CUADERNO.ActividadesExplotacion.TratamFito.ProductosFito.Dosis', 0.00049)).toBe(0);
    expect(roundTo(1.2345, 3)).toBe(1.235);
    expect(() => cueNumber('CUADERNO.ActividadesExplotacion.TratamFito.Eficacia', 1)).toThrow();
  });

  it('does not send a dose that rounds to 0.000', () => {
    const f = farm();
    expect(mapRecord(record(f, { dose: 0.0004 }), 7, f)).toEqual({
      ok: false,
      missing: [expect.stringMatching(/^dose 0.0004 is below 0.001/)],
    });
    expect(mapRecord(record(f, { dose: 100_000 }), 7, f)).toEqual({
      ok: false,
      missing: [expect.stringMatching(/^dose: .*Dosis \(Dosis\): 100000 does not fit number\(8,3\)$/)],
    });
  });
});

describe('item 3: the crops’ declared areas', () => {
  const f = farm();

  it('without a treated area, each DGC sends its declared area; undeclared crops share what is left, evenly', () => {
    expect(superficies(blocks(record(f), f))).toEqual([1.5, 1.1, 0.85]);
    // the whole ground: 1.50 + 0.85 declared, and 1.1037 ha undeclared (its hundredths: 1.10)
    expect(locationsArea([...f.byIdcp.values()])).toBeCloseTo(3.4537, 10);
  });

  it('with a treated area, spreads it over the declared areas in proportion', () => {
    // 2.35 ha on the two crops of 12-1: exactly their declared 1.50 + 0.85
    expect(superficies(blocks(record(f, { surface: '2.35' }, ['1', '2']), f))).toEqual([1.5, 0.85]);
    // half of it: 0.75 and 0.425, in hundredths adding up to 1.18 (1.175 within 0.01)
    const half = superficies(blocks(record(f, { surface: '1.175' }, ['1', '2']), f));
    expect(half[0]).toBe(0.75);
    expect(Math.abs(half[0] + half[1] - 1.175)).toBeLessThanOrEqual(0.01);
  });

  it('one crop of a two-crop enclosure covers its declared area, not the enclosure', () => {
    expect(superficies(blocks(record(f, {}, ['2']), f))).toEqual([0.85]);
    expect(locationsArea([f.byIdcp.get(2)!])).toBe(0.85);
  });
});

describe('area shares in hundredths (property)', () => {
  /** Enclosures of 0.05 to 50 ha, 1 to 3 crops each, some with declared areas; a treated part of their ground. */
  const farmArb = (decimals: 2 | 4) =>
    fc
      .array(
        fc.record({
          hundredths: fc.integer({ min: 5 * 10 ** (decimals - 2), max: 50 * 10 ** decimals }),
          crops: fc.array(fc.option(fc.double({ min: 0.05, max: 1, noNaN: true }), { nil: undefined }), {
            minLength: 1,
            maxLength: 3,
          }),
        }),
        { minLength: 1, maxLength: 8 },
      )
      .map((encs) => {
        let idcp = 0;
        return encs.flatMap((e, i) => {
          const area = e.hundredths / 10 ** decimals;
          const parts = e.crops.reduce((n: number, c) => n + (c ?? 0), 0);
          return e.crops.map((c) => {
            // declared areas of one enclosure add up to no more than it, as the dataset validation holds them
            const declared = c === undefined ? 0 : Math.floor((area * c * 100) / Math.max(1, parts)) / 100;
            const where = at(String(i + 1), '1');
            return entry(++idcp, 0, where, area.toFixed(decimals), declared > 0 ? declared.toFixed(2) : undefined);
          });
        });
      });

  const check = (entries: IdcpEntry[], fraction: number | undefined, exact: boolean) => {
    const ground = locationsArea(entries);
    const treated = fraction === undefined ? undefined : ground * fraction;
    const shares = areaShares(entries, treated);
    const values = [...shares.values()];
    for (const v of values) {
      expect(Math.round(v * 100) / 100).toBe(v);
      expect(v).toBeGreaterThanOrEqual(0.01);
    }
    for (const e of entries) {
      const share = shares.get(e.idcp)!;
      expect(share).toBeLessThanOrEqual(Number(e.dimension) + 1e-9);
      if (e.area !== undefined && Number(e.area) >= 0.01) expect(share).toBeLessThanOrEqual(Number(e.area) + 1e-9);
    }
    const byEnclosure = new Map<string, { area: number; sum: number; n: number }>();
    for (const e of entries) {
      const k = `${e.pol}`;
      const s = byEnclosure.get(k) ?? { area: Number(e.dimension), sum: 0, n: 0 };
      s.sum += shares.get(e.idcp)!;
      s.n += 1;
      byEnclosure.set(k, s);
    }
    for (const s of byEnclosure.values()) expect(s.sum).toBeLessThanOrEqual(Math.max(s.area, s.n * 0.01) + 1e-9);
    const sum = values.reduce((n, v) => n + v, 0);
    const target = treated ?? ground;
    // a share that rounds to 0.00 is sent as 0.01: each may add a hundredth the total cannot give back
    const bumped = values.filter((v) => v === 0.01).length * 0.01;
    // areas in hundredths (as the REA writes them): within 0.01 ha; in SIGPAC's 4 decimals, never above the ground,
    // and short by less than a hundredth per enclosure (no DGC may round up past its enclosure)
    if (exact) expect(Math.abs(sum - target)).toBeLessThanOrEqual(0.01 + bumped + 1e-9);
    else {
      expect(sum).toBeLessThanOrEqual(target + 0.005 + bumped + 1e-9);
      expect(sum).toBeGreaterThan(target - 0.01 * (byEnclosure.size + 1));
    }
  };

  it('each share in hundredths and at least 0.01, none above its enclosure or declared area, the total kept', () => {
    fc.assert(
      fc.property(farmArb(2), fc.option(fc.double({ min: 0.05, max: 1, noNaN: true }), { nil: undefined }), (e, x) =>
        check(e, x, true),
      ),
      { numRuns: propertyRuns(400) },
    );
  });

  it('the same with SIGPAC areas of 4 decimals, the total short by less than 0.01 per enclosure', () => {
    fc.assert(
      fc.property(farmArb(4), fc.option(fc.double({ min: 0.05, max: 1, noNaN: true }), { nil: undefined }), (e, x) =>
        check(e, x, false),
      ),
      { numRuns: propertyRuns(400) },
    );
  });
});
