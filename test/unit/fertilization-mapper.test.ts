import fc from 'fast-check';
import { isSewageSludge } from '../../shared/fertilization/material-kinds';
import { DateTime } from 'luxon';
import { fertilizeRequestSchema } from '../../shared/fertilization/wire';
import { formatDate, ZONE } from '../../shared/domain/dates';
import { fertilizationKind } from '../../shared/fertilization/fertilization-kind';
import { fertilizationOf, requestOf } from '../../shared/fertilization/wire-mapper';
import { mineralBody } from '../helpers/fertilization-fixtures';
import { propertyRuns } from '../helpers/property-runs';

/**
 * The fertilization's mappers (shared/fertilization/wire-mapper.ts, stored-record.ts, stored-request.ts). The domain
 * value is a normal form: the last day is always written (the first, when the request gave none), a machine list is
 * one machine or none, `manual` is true or not said. A body already in that form maps to the domain value and back to
 * itself; any body maps back to one that means the same; and the request a pointer stores reads back the same.
 */
const SEED = Number(process.env.FC_SEED ?? 20261128);

const name = fc.string({ maxLength: 12 });
const code = fc.integer({ min: 0, max: 999 }).map(String);
const coded = (type: string) => fc.record({ type: fc.constant(type), id: code, name });
const contents = fc.uniqueArray(
  fc.record({ id: code, percent: fc.integer({ min: 0, max: 10_000 }).map((n) => n / 100) }),
  {
    maxLength: 4,
    selector: (c) => c.id,
  },
);
const measure = fc.record({
  type: fc.constant('Measure' as const),
  name,
  symbol: fc.string({ minLength: 1, maxLength: 5 }),
  code: fc.integer({ min: 1, max: 99 }),
});
const positive = fc.integer({ min: 1, max: 99_999 }).map((n) => n / 100);
const day = (offset: number) =>
  formatDate(DateTime.fromObject({ year: 2024, month: 1, day: 1 }, { zone: ZONE }).plus({ days: offset }));
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

/** A body in the domain's normal form: what `requestOf` writes. */
const normalBody = fc
  .record({
    start: fc.integer({ min: 0, max: 700 }),
    days: optional(fc.integer({ min: 1, max: 30 })),
    idcp: fc.uniqueArray(fc.integer({ min: 1, max: 999_999 }), { minLength: 1, maxLength: 5 }),
    material: fc.record(
      {
        type: fc.constant('TypeFertilizerMaterial'),
        id: code,
        name,
        nutrients: contents,
        micronutrients: contents,
        heavyMetals: contents,
        treatment: coded('TypeManureTreatment'),
        supplier: fc
          .tuple(
            fc.constantFrom('nif', 'rega', 'nima'),
            fc.string({ minLength: 1, maxLength: 12 }),
            optional(fc.string({ minLength: 1, maxLength: 12 })),
          )
          .map(([by, id, who]) => ({ [by]: id, ...(who === undefined ? {} : { name: who }) })),
        productName: fc.string({ minLength: 1, maxLength: 12 }),
        density: fc.integer({ min: 1, max: 1000 }).map((n) => n / 100),
      },
      { requiredKeys: ['type', 'id', 'name', 'nutrients', 'micronutrients', 'heavyMetals'] },
    ),
    kind: coded('TypeFertilization'),
    method: coded('TypeFertilizationMethod'),
    dose: positive,
    measure,
    surface: optional(positive.map(String)),
    sludge: fc.boolean(),
    goodPractices: fc.uniqueArray(coded('TypeGoodPractice'), { maxLength: 3, selector: (g) => g.id }),
    fertigation: optional(
      fc.record(
        {
          system: coded('TypeIrrigationSystem'),
          waterOrigins: fc.uniqueArray(coded('TypeWaterOrigin'), { maxLength: 3, selector: (o) => o.id }),
          quantity: positive,
          measure,
          nDose: positive,
          nMeasure: measure,
          pDose: positive,
          pMeasure: measure,
        },
        { requiredKeys: ['system', 'waterOrigins', 'measure', 'nDose', 'nMeasure', 'pDose', 'pMeasure'] },
      ),
    ),
    machine: optional(
      fc
        .record(
          {
            type: fc.constant('Machine' as const),
            id: fc.constantFrom('060303013', '0630320_88'),
            name,
            roma: name,
            inspection: fc.constantFrom('', '10-03-2025'),
            registered: fc.constant('01-02-2024'),
            ref: name,
          },
          { requiredKeys: ['type', 'id', 'name', 'roma', 'inspection', 'ref'] },
        )
        .map((m) => [m]),
    ),
    manual: optional(fc.constant(true)),
    detail: optional(name),
  })
  // The normal form states the sludge flag only where it differs from the material's (material-kinds.ts).
  .map(({ start, days, idcp, sludge, ...r }) => ({
    type: 'AgriFertilize',
    dateStart: day(start),
    ...(days === undefined ? {} : { dateEnd: day(start + days) }),
    idcp: idcp.map(String),
    ...r,
    ...(sludge === isSewageSludge(Number(r.material.id)) ? {} : { sludge }),
  }));

/** Any valid body: also the forms the domain writes otherwise (its last day given as the first, `manual: false`...). */
const anyBody = fc
  .tuple(normalBody, fc.boolean(), fc.constantFrom<boolean | undefined>(undefined, false), fc.boolean())
  .map(([b, sameEnd, manual, noMachine]) => ({
    ...b,
    ...(sameEnd ? { dateEnd: b.dateStart } : {}),
    ...(manual === false ? { manual } : {}),
    ...(noMachine ? { machine: [] } : {}),
  }));

const json = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

describe('the fertilization mappers', () => {
  it('map a body in the normal form to the domain value and back to the same body', () => {
    fc.assert(
      fc.property(normalBody, (raw) => {
        const wire = fertilizeRequestSchema.parse(raw);
        expect(json(requestOf(fertilizationOf(wire)))).toEqual(json(wire));
      }),
      { seed: SEED, numRuns: propertyRuns(200) },
    );
  });

  it('map any body back to one that means the same', () => {
    fc.assert(
      fc.property(anyBody, (raw) => {
        const f = fertilizationOf(fertilizeRequestSchema.parse(raw));
        expect(fertilizationOf(fertilizeRequestSchema.parse(requestOf(f)))).toEqual(f);
      }),
      { seed: SEED, numRuns: propertyRuns(200) },
    );
  });

  it('store a fertilization as the request its pointer keeps, and read it back the same', () => {
    fc.assert(
      fc.property(anyBody, (raw) => {
        const f = fertilizationKind.toRequest(raw);
        expect(fertilizationKind.fromStored(json(fertilizationKind.toStored(f)))).toEqual(f);
      }),
      { seed: SEED, numRuns: propertyRuns(50) },
    );
  });

  it('write the last day when the request gave none, and the names it gave each code', () => {
    const f = fertilizationOf(fertilizeRequestSchema.parse(mineralBody()));
    expect([f.start, f.end, f.kind, f.names.kind, f.unit]).toEqual([
      '2026-05-14',
      '2026-05-14',
      2,
      'Abonado de cobertera',
      { code: 17, symbol: 'kg/ha', name: 'kg/ha' },
    ]);
  });
});
