import { z } from 'zod';
import { roundTripFields } from '../../shared/api/record-fields';
import { RECORD_KINDS } from '../../shared/app/record-kinds';
import { documentSchemas, followRef } from '../helpers/read-only';

/**
 * Issue 38 item 2: what a record shows, a registration takes back, for every kind alike. `roundTripFields` makes each
 * kind's request take null for an optional field and decimal text for an amount; the document then says so for every
 * kind's request, and marks readOnly every member of a record that a request cannot send.
 */
describe('roundTripFields', () => {
  const schema = z
    .strictObject(
      roundTripFields({
        dose: z.number().positive().describe('the dose'),
        code: z.number().int(),
        note: z.string().max(5).optional().describe('a note'),
        kept: z.boolean().default(false),
        items: z.array(z.strictObject({ weight: z.number().min(0).optional() })).default([]),
        unit: z.strictObject({ code: z.number().int() }).meta({ id: 'RoundTripUnit' }).optional(),
      }),
    )
    .superRefine((r, ctx) => {
      if (r.dose > 100) ctx.addIssue({ code: 'custom', path: ['dose'], message: 'over 100' });
    });
  const parse = (body: unknown) => schema.safeParse(body);

  it('reads null as not given, and a default field as its default', () => {
    expect(parse({ dose: 1, code: 2, note: null, kept: null, items: null, unit: null }).data).toEqual({
      dose: 1,
      code: 2,
      kept: false,
      items: [],
    });
  });

  it('reads an amount given as decimal text as the number, within the same bounds', () => {
    expect(parse({ dose: '10.5', code: 2 }).data).toEqual({ dose: 10.5, code: 2, kept: false, items: [] });
    expect(parse({ dose: '0', code: 2 }).success).toBe(false);
    expect(parse({ dose: '100.5', code: 2 }).error?.issues.map((i) => i.message)).toEqual(['over 100']);
    expect(parse({ dose: 1, code: 2, items: [{ weight: '0.25' }, { weight: null }] }).data?.items).toEqual([
      { weight: 0.25 },
      {},
    ]);
  });

  it('refuses a decimal comma with a message that says to use a point, and leaves integer codes as numbers', () => {
    const comma = parse({ dose: '2,5', code: 2 });
    expect(JSON.stringify(comma.error?.issues)).toMatch(/with a point/);
    expect(parse({ dose: 1, code: '2' }).success).toBe(false);
  });

  it('leaves a named component as it is, so that request and record share it', () => {
    expect(parse({ dose: 1, code: 2, unit: { code: '3' } }).success).toBe(false);
    expect(parse({ dose: 1, code: 2, unit: { code: 3 } }).data?.unit).toEqual({ code: 3 });
  });
});

type Json = Record<string, any>;

describe('every kind, in the OpenAPI document', () => {
  const schemas = documentSchemas as Record<string, Json>;
  const branches = (node: Json): Json[] => {
    const n = followRef(node);
    return Array.isArray(n.anyOf) ? n.anyOf.flatMap(branches) : [n];
  };
  const types = (node: Json) =>
    branches(node).flatMap((b) => (Array.isArray(b.type) ? b.type : b.type === undefined ? [] : [b.type]));

  const kinds = RECORD_KINDS.map((entry) => {
    const request = schemas[`${entry.urnType}Request`];
    return { name: entry.urnType, request, record: schemas[entry.urnType] };
  });

  it.each(kinds)('$name: every optional field of a registration takes null', ({ request }) => {
    const required = new Set<string>(request.required ?? []);
    const refusing = Object.entries(request.properties as Record<string, Json>)
      .filter(([name, p]) => !required.has(name) && !types(p).includes('null'))
      .map(([name]) => name);
    expect(refusing).toEqual([]);
  });

  it.each(kinds)('$name: every amount of a registration takes decimal text', ({ request }) => {
    const numberOnly = Object.entries(request.properties as Record<string, Json>)
      .filter(([, p]) => types(p).includes('number') && !types(p).includes('string'))
      .map(([name]) => name);
    expect(numberOnly).toEqual([]);
  });

  it.each(kinds)('$name: every member of the record a registration cannot send is readOnly', ({ request, record }) => {
    const sendable = new Set(Object.keys(request.properties as Json));
    const unmarked = Object.entries(followRef(record).properties as Record<string, Json>)
      .filter(([name, p]) => !sendable.has(name) && p.readOnly !== true)
      .map(([name]) => name);
    expect(unmarked).toEqual([]);
  });
});
