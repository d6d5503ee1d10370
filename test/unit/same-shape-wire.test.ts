import { z } from 'zod';
import { sameShapeWire, withExportability } from '../../shared/records/same-shape-wire';

/** The kinds whose wire request is what they keep of a request share one mapping, tied both ways at compile time. */
const wire = z.strictObject({ day: z.string(), dose: z.coerce.number().default(1) });
type Kept = { day: string; dose: number };
const valueOf = (k: Kept) => ({ ...k, value: true as const });
const keptOf = ({ day, dose }: { day: string; dose: number }): Kept => ({ day, dose });

it('parses any body to the domain value, with the schema defaults, and maps it back', () => {
  const mapping = sameShapeWire(wire, valueOf, keptOf);
  const value = mapping.fromWire({ day: '01-05-2026' });
  expect(value).toEqual({ day: '01-05-2026', dose: 1, value: true });
  expect(mapping.toWire(value)).toEqual({ day: '01-05-2026', dose: 1 });
  expect(() => mapping.fromWire({ day: 1 })).toThrow(z.ZodError);
});

it('refuses to compile when the wire and what the kind keeps differ by a field, either way', () => {
  type More = Kept & { note: string };
  const keepsMore = (k: More) => k;
  // @ts-expect-error the kind keeps a field the wire request lacks
  sameShapeWire(wire, keepsMore, (v: More) => v);
  const narrow = z.strictObject({ day: z.string() });
  // @ts-expect-error the wire request has a field the kind does not keep
  sameShapeWire(wire.extend({ note: z.string() }), valueOf, keptOf);
  expect(
    sameShapeWire(
      narrow,
      (k: { day: string }) => k,
      (v: { day: string }) => v,
    ).toWire({ day: 'x' }),
  ).toEqual({
    day: 'x',
  });
});

it('answers a record with whether an export would take it now', () => {
  expect(withExportability({ id: 'r' }, [])).toEqual({ id: 'r', exportable: true, exportBlockers: [] });
  expect(withExportability({ id: 'r' }, ['MISSING'])).toEqual({
    id: 'r',
    exportable: false,
    exportBlockers: ['MISSING'],
  });
});
