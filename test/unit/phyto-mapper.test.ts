import fc from 'fast-check';
import { DateTime } from 'luxon';
import { PhytoRequest, phytoRequestSchema } from '../../shared/phyto/wire';
import { formatDate, formatDateTime, ZONE } from '../../shared/domain/dates';
import { DomainError } from '../../shared/domain/errors';
import { pestKinds } from '../../shared/domain/pest-kind';
import { phytoKind } from '../../shared/phyto/phyto-kind';
import { treatmentFromWire, wireOf } from '../../shared/phyto/wire-mapper';
import { phytoRequest } from '../helpers/phyto-fixtures';
import { propertyRuns } from '../helpers/property-runs';

/**
 * The treatment's mappers (shared/phyto/wire-mapper.ts, stored-request.ts): a body the API accepts maps to the domain
 * value and back to itself, field for field and in the schema's order (an amendment's merge patch and a record's
 * history are worked on that form); the request a pointer stores does too. Random bodies of every shape the schema
 * takes: every optional field given, left out or null, amounts as numbers or text, a mix of up to five products.
 */
const SEED = Number(process.env.FC_SEED ?? 20261128);

/** Absent, null, or the value: an optional field as an ERP may send it. */
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(fc.option(arb, { nil: null }), { nil: undefined });
const name = fc.string({ maxLength: 12 });
const digits = fc.integer({ min: 0, max: 99_999 }).map(String);
const amount = fc
  .integer({ min: 1, max: 99_999 })
  .chain((n) => fc.constantFrom<number | string>(n / 100, String(n / 100)));
const measure = fc.record({
  type: fc.constant('Measure' as const),
  name,
  symbol: fc.string({ minLength: 1, maxLength: 5 }),
  code: fc.integer({ min: 1, max: 99 }),
});
const infection = fc.record({
  type: fc.constant('TypeInfection' as const),
  kind: fc.constantFrom(...pestKinds),
  id: digits,
  name: fc.option(name, { nil: null }),
});
const coded = <T extends string>(type: T) => fc.record({ type: fc.constant(type), id: digits, name });
const day = fc
  .integer({ min: 0, max: 3650 })
  .map((n) => formatDate(DateTime.fromObject({ year: 2020, month: 1, day: 1 }, { zone: ZONE }).plus({ days: n })));
const machine = fc.record(
  {
    type: fc.constant('Machine' as const),
    id: fc.constantFrom('060303013', '060303021', '0630311_88'),
    name,
    roma: fc.string({ maxLength: 8 }),
    inspection: fc.oneof(fc.constant(''), day),
    registered: maybe(day),
    ref: fc.string({ maxLength: 8 }),
  },
  { requiredKeys: ['type', 'id'] },
);
/** A pair of an amount and its unit, each given or neither. */
const paired = (value: string, unit: string) =>
  fc.option(
    fc.tuple(amount, measure).map(([v, m]) => ({ [value]: v, [unit]: m })),
    { nil: undefined },
  );
const product = (code: number) => ({ type: 'TypePhytosanitary' as const, name: `P${code}`, code: `ES-${code}` });

const body = fc
  .record({
    at: fc.integer({ min: 0, max: 10 * 365 * 24 * 60 }),
    codes: fc.uniqueArray(fc.integer({ min: 10_000, max: 99_999 }), { minLength: 1, maxLength: 6 }),
    dose: amount,
    measure,
    mixItems: fc.array(
      fc.record({
        dose: amount,
        measure,
        total: paired('dt', 'mdt'),
        batch: maybe(name),
        infection: maybe(infection),
      }),
      { minLength: 5, maxLength: 5 },
    ),
    idcp: fc.uniqueArray(fc.integer({ min: 1, max: 999_999 }), { minLength: 1, maxLength: 7 }),
    nif: fc.string({ minLength: 1, maxLength: 12 }),
    ropo: fc.integer({ min: 0, max: 99_999_999 }),
    infection: maybe(infection),
    tj: maybe(fc.uniqueArray(coded('TypeJustification'), { maxLength: 3, selector: (t) => t.id })),
    efficacy: maybe(
      fc.record({
        type: fc.constant('TypeEfficacy' as const),
        id: fc.oneof(fc.constant(''), digits),
        name,
        detail: maybe(name),
      }),
    ),
    machine: maybe(fc.array(machine, { maxLength: 2 })),
    manual: maybe(fc.boolean()),
    advisor: maybe(
      fc.record(
        { type: fc.constant('UserMetadata' as const), ropo: fc.constant('ES-46000777'), nif: maybe(name) },
        { requiredKeys: ['type', 'ropo'] },
      ),
    ),
    phenology: maybe(coded('TypePhenology')),
    detail: maybe(name),
    batch: maybe(name),
    soup: maybe(amount),
    total: paired('dt', 'mdt'),
    area: paired('st', 'mst'),
    surface: maybe(amount),
    preventive: maybe(fc.constantFrom('0', '1')),
    distributed: maybe(fc.constantFrom('0', '1')),
    reviewed: maybe(fc.constantFrom('0', '1')),
    pp: maybe(name),
    speed: maybe(amount),
    recipe: maybe(name),
  })
  .map(({ at, codes, mixItems, idcp, nif, ropo, total, area, ...r }) => {
    const [main, ...mixed] = codes;
    return {
      ...r,
      type: 'AgriPhytosanitary',
      dateApplication: formatDateTime(DateTime.fromObject({ year: 2020 }, { zone: ZONE }).plus({ minutes: at })),
      subtype: product(main),
      ...(mixed.length > 0
        ? {
            mix: mixed.map((code, i) => {
              const { total: itemTotal, ...item } = mixItems[i];
              return { subtype: product(code), ...item, ...itemTotal };
            }),
          }
        : {}),
      idcp: idcp.map(String),
      applicator: { user: { type: 'UserMetadata', nif, ropo: `ES-${String(ropo).padStart(8, '0')}` } },
      ...total,
      ...area,
    };
  });

/** A body as the API's schema leaves it, or nothing when the schema refuses it (two machines it cannot tell apart). */
function parsed(raw: unknown): PhytoRequest | undefined {
  const out = phytoRequestSchema.safeParse(raw);
  return out.success ? out.data : undefined;
}

describe('the treatment mappers', () => {
  it('map every body the API takes to the domain value and back to the same body, in the same order', () => {
    fc.assert(
      fc.property(body, (raw) => {
        const wire = parsed(raw);
        fc.pre(wire !== undefined);
        expect(JSON.stringify(wireOf(treatmentFromWire(wire)))).toBe(JSON.stringify(wire));
      }),
      { seed: SEED, numRuns: propertyRuns(200) },
    );
  });

  it('store a treatment as the request its pointer keeps, and read it back the same', () => {
    fc.assert(
      fc.property(body, (raw) => {
        const wire = parsed(raw);
        fc.pre(wire !== undefined);
        const stored = JSON.parse(JSON.stringify(phytoKind.toStored(phytoKind.toRequest(wire)))) as unknown;
        // Pointers have kept the body as the API accepted it since the first release: format 1 is that body.
        expect(stored).toEqual(JSON.parse(JSON.stringify(wire)));
        expect(phytoKind.toWire(phytoKind.fromStored(stored))).toEqual(JSON.parse(JSON.stringify(wire)));
      }),
      { seed: SEED, numRuns: propertyRuns(50) },
    );
  });

  it('give the rules what the request means: numbers, booleans, null for what it did not say', () => {
    const t = treatmentFromWire(
      phytoRequestSchema.parse(
        phytoRequest({
          dose: '0.50' as unknown as number,
          idcp: ['101', '7'],
          preventive: '1',
          reviewed: '0',
          dt: '2.5',
          mdt: { type: 'Measure', name: 'kg', symbol: 'kg', code: 5 },
          efficacy: { type: 'TypeEfficacy', id: '', name: '', detail: '' },
          detail: null as unknown as string,
        }),
      ),
    );
    expect(t.appliedAt.toISO()).toBe('2026-05-14T10:00:00.000+02:00');
    expect(t.product).toEqual({
      code: 'ES-11179',
      name: 'MICROTHIOL SPECIAL DISPERSS',
      dose: 0.5,
      unit: { code: 14, symbol: '%', name: 'Porcentaje' },
      total: { value: '2.5', unit: { code: 5, symbol: 'kg', name: 'kg' } },
      batch: null,
      infection: null,
    });
    expect([t.idcp, t.mix, t.preventive, t.reviewed, t.distributed]).toEqual([[101, 7], [], true, false, null]);
    // An efficacy not reported yet ('' as a record shows it) and a detail sent as null are not given.
    expect([t.efficacy, t.detail, t.justifications, t.machines, t.manual]).toEqual([null, null, null, null, null]);
  });

  it('refuse an application time that does not exist in Madrid (the hour summer time skips) as INVALID_DATE', () => {
    const bad = { ...phytoRequest(), dateApplication: '29-03-2026 02:30:00' };
    expect(() => treatmentFromWire(bad)).toThrow(DomainError);
    try {
      treatmentFromWire(bad);
    } catch (e) {
      expect((e as DomainError).violations.map((v) => [v.code, v.path])).toEqual([
        ['INVALID_DATE', 'body.dateApplication'],
      ]);
    }
  });
});
