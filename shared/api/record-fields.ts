import { z } from 'zod';
import { daySchema } from '../domain/day-schema';
import { queryInteger } from './query-params';

/**
 * The wire pieces every record kind's schemas share: the registration's query, the bound on its locations, units and
 * machines as SIEX codes them, and whether SIEX would take a record now. Each kind's own schemas live in its folder
 * (`shared/<kind>/wire*.ts`).
 */

/**
 * Every change of a record is one entity-group transaction of at most 100 operations, and the largest is an amendment
 * of its product and date: the history rows of every enclosure for the old product and for the new one, plus six (the
 * record under its old and new key, its pointer, its version, the idempotency entry, the list token). So a record
 * names at most (100 - 6) / 2 locations: any amendment of it can be written whole.
 */
export const MAX_IDCP_PER_RECORD = 47;

/**
 * A record's crop locations, as listidcp and the farm lookup give them. The lookup writes an idcp as a number and
 * requests as text (issue 38 item 9): both are taken, and the record keeps text, so `4` and `"4"` are the same location
 * (named twice, they are refused as twice). `min` 0 lets a kind take none (a record of something other than
 * a crop location).
 */
export const idcpList = (min = 1) =>
  z
    .array(
      z.union([
        z.string().regex(/^[1-9]\d{0,9}$/, 'idcp from the identifier operation'),
        z.number().int().min(1).max(9_999_999_999).transform(String).pipe(z.string()),
      ]),
    )
    .min(min)
    .max(MAX_IDCP_PER_RECORD)
    .refine((a) => new Set(a).size === a.length, 'an idcp appears twice');

/**
 * Records round-trip (issue 26): a record read back, less its read-only fields, is a valid request. So every optional
 * field also takes `null` for "not given" (what the record shows for it, and what ERP serializers write), and every
 * amount the record writes as text takes that text as well as a number.
 */
export function optional<T extends z.ZodType>(schema: T) {
  return schema
    .nullable()
    .transform((v): Exclude<z.output<T>, null> | undefined =>
      v === null ? undefined : (v as Exclude<z.output<T>, null>),
    )
    .optional();
}

/** An optional field whose absence means `fallback` (the record's neutral value): null says the same. */
export function orDefault<T extends z.ZodType<string>>(schema: T, fallback: string) {
  return schema
    .nullable()
    .transform((v) => v ?? fallback)
    .default(fallback);
}

/**
 * Free text is bounded: the stored record echoes it and must fit in one table entity (MAX_DOC_CHARS), so an unbounded
 * name in a body under the 1 MB limit would otherwise end in a 500 instead of a 400.
 */
const NAME_MAX = 200;
export const name = () => z.string().max(NAME_MAX);

/**
 * A non-negative decimal number as text, as records write areas and doses. The separator is a point: "2,5" is refused
 * with a message that says so, not read as 2.5, since an ERP's "1,250" may as well be a thousand and a quarter.
 */
export const decimalText = () =>
  z
    .string()
    .max(20)
    .regex(/^\d+(\.\d+)?$/, 'a non-negative decimal number with a point, e.g. 2.5 or "2.5" (not "2,5": no comma)');

/** What a record shows that a request does not send: the OpenAPI document marks it `readOnly`. */
export const READ_ONLY = { readOnly: true } as const;

export const measureSchema = z
  .strictObject({
    type: z.literal('Measure'),
    name: name(),
    symbol: z.string().min(1).max(20),
    code: z.number().int().positive().describe('SIEX unit code (catalogue UNIDADES_MEDIDA)'),
  })
  .meta({ id: 'Measure' });

export const machineSchema = z
  .strictObject({
    type: z.literal('Machine'),
    // SIEX takes the type as TipoMaquinariaUNE, at most 12 characters (codes look like 060303021 or 0630320_88).
    id: z
      .string()
      .regex(/^[0-9A-Za-z_]{1,12}$/, 'UNE machine type code: up to 12 letters, digits or _')
      .describe('UNE machine type code (SIEX catalogue TIPO_MAQUINA_UNE), e.g. 060303021 for an air-blast sprayer'),
    name: orDefault(name(), ''),
    roma: orDefault(z.string().max(50), '').describe('official machinery register (ROMA) number, when registered'),
    inspection: orDefault(z.union([z.literal(''), daySchema]), '').describe(
      'day of its last official inspection (ITEAF), DD-MM-YYYY: not after the application nor more than 3 years before it (RD 1702/2011 art. 6), else 422 EQUIPMENT_INSPECTION_EXPIRED; in a treatment, a powered machine states this or `registered`, else 422 EQUIPMENT_INSPECTION_UNKNOWN; neither is checked for hand-held and backpack types',
    ),
    registered: optional(daySchema).describe(
      'day the machine was first registered (ROMA), DD-MM-YYYY: a machine not inspected yet passes when this is less than 5 years before the application',
    ),
    ref: orDefault(z.string().max(50), '').describe(
      "the ERP's own identifier of this machine: SIEX's IdEquipoAplicador when it has no ROMA number",
    ),
  })
  .meta({ id: 'Machine' });

/** What the records core stamps on every kind's stored record, as every answer shows it (read-only). */
export const recordStamps = {
  dateCreated: z.string().describe('when it was registered, DD-MM-YYYY HH:mm:ss (Madrid)').meta(READ_ONLY),
  dateModified: z
    .string()
    .describe("when it was last amended, DD-MM-YYYY HH:mm:ss (Madrid); '' before any amendment")
    .meta(READ_ONLY),
  exported: z
    .enum(['0', '1'])
    .describe('"1" once SIEX holds the record as it is (or it was sent by other means)')
    .meta(READ_ONLY),
};

/** Why an export would refuse a record now: a record's own answer and an export's start say it alike. */
export const exportBlockerSchema = z.object({
  code: z.literal('MISSING_DATA'),
  message: z.string().describe('what SIEX needs and the record (or its farm) lacks'),
});

/**
 * Whether SIEX would take a record now, as every answer of every record kind shows it: worked out by the export's own
 * mapping on each answer, not stored.
 */
export const exportabilityFields = {
  exportable: z
    .boolean()
    .describe('whether an export would send the record now: true exactly when `exportBlockers` is empty')
    .meta(READ_ONLY),
  exportBlockers: z
    .array(exportBlockerSchema)
    .describe(
      'every reason an export would refuse the record now (the job would settle it MISSING_DATA with these messages); empty when it can be sent',
    )
    .meta(READ_ONLY),
};

/** The query of a registration, single or batch, of any kind. */
export const registerQuerySchema = z.object({
  agrifarmId: z.string().min(1).describe('farm URN from the farm lookup'),
  exported: queryInteger(0, 1, '0 or 1')
    .optional()
    .describe('1 records what was already sent to SIEX by other means; it will not be exported again'),
});

/** Whatever the OpenAPI document says of a schema (description, readOnly...), but its component id. */
function docOf(schema: z.ZodType): Record<string, unknown> {
  const { id: _, ...meta } = z.globalRegistry.get(schema) ?? {};
  return meta;
}

/** An amount that also takes its decimal text ("10.5"), judged by the same bounds once read. Integers (codes) stay. */
function amountOf(schema: z.ZodNumber): z.ZodType {
  if (schema.format === 'safeint') return schema;
  return z.union([schema, decimalText().transform(Number).pipe(schema)]).meta(docOf(schema));
}

/**
 * One field of a registration with the round-trip rules (issue 26; issue 38 item 2), at any depth but inside a named
 * component (a `Measure`, a catalogue code), which the record shows in the same shape and other schemas share.
 */
function roundTripping(field: z.ZodType): z.ZodType {
  if (z.globalRegistry.get(field)?.id !== undefined) return field;
  if (field instanceof z.ZodOptional) {
    const inner = field.unwrap() as z.ZodType;
    return inner.safeParse(null).success ? field : optional(roundTripping(inner)).meta(docOf(field));
  }
  if (field instanceof z.ZodDefault) {
    const inner = field.unwrap() as z.ZodType;
    if (inner.safeParse(null).success) return field;
    const fallback: unknown = field.parse(undefined);
    return roundTripping(inner)
      .nullable()
      .transform((v) => v ?? fallback)
      .default(fallback)
      .meta(docOf(field));
  }
  if (field instanceof z.ZodNumber) return amountOf(field);
  if (field instanceof z.ZodObject) {
    const shape = field.shape as Record<string, z.ZodType>;
    return field.clone({ ...field._zod.def, shape: roundTripFields(shape) });
  }
  if (field instanceof z.ZodArray) {
    return field.clone({ ...field._zod.def, element: roundTripping(field.element as z.ZodType) });
  }
  return field;
}

/**
 * A kind's registration fields as every kind takes them, so that a record read back, less what the document marks
 * readOnly, is a registration again, whatever an ERP's serializer makes of it: an optional field takes null for "not
 * given", a field with a default takes null for that default, and an amount takes decimal text as well as a number
 * ("10.5"; a comma is refused with a message, as `decimalText` says). Kinds build their request with it; what they
 * already accept as null or text is left as it is. The record's own schema keeps the fields as they were: it shows
 * values, not what a request may write.
 */
export function roundTripFields<S extends Record<string, z.ZodType>>(fields: S): S {
  return Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, roundTripping(f)])) as S;
}
