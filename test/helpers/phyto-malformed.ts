import fc from 'fast-check';
import { PhytoRequest } from '../../shared/phyto/wire';

/**
 * fast-check arbitraries of registration bodies that must be refused: each is a lawful base body (the tests prove it
 * is accepted) broken in one way that no chance can repair, or a body that is not such a request at all. Every case
 * carries a label saying what was done, so a failure names its case; bodies travel as raw text so that texts JSON.stringify
 * cannot write (1e999, duplicate keys, truncation) are covered too.
 */
export interface MalformedCase {
  label: string;
  text: string;
}

export interface MalformedContext {
  /** A lawful body: the unlimited copper product, 0.6-0.62 %, on a vine idcp of the farm. */
  base: PhytoRequest;
  /** The year of the clock the gateway checks against: dates two or more years away are never inside the window. */
  year: number;
  /** Lawful on the farm, but for another crop than the product's (PRODUCT_NOT_FOR_CROP with the base product). */
  wheatIdcp: string;
  /** Every idcp of the farm: random ones are drawn outside them. */
  knownIdcps: string[];
  /** Codes of products that must be refused for the base location: unknown, expired, not for vine. */
  refusedProducts: string[];
  /** Cards that must be refused: suspended, expired. */
  refusedCards: { nif: string; ropo: string }[];
  /** A valid NIF of somebody else than the base card's holder. */
  otherNif: string;
}

type Path = (string | number)[];
type Json = unknown;

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

function parentOf(root: Json, path: Path): Record<string | number, Json> {
  let node = root as Record<string | number, Json>;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string | number, Json>;
  return node;
}

function withValue(root: Json, path: Path, value: Json): Json {
  const copy = clone(root);
  Object.defineProperty(parentOf(copy, path), path[path.length - 1], {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return copy;
}

function without(root: Json, path: Path): Json {
  const copy = clone(root);
  delete parentOf(copy, path)[path[path.length - 1]];
  return copy;
}

/** A case that fast-check prints compactly when it reports a counterexample (the text may be megabytes). */
function malformed(label: string, text: string): MalformedCase {
  return {
    label,
    text,
    [fc.toStringMethod]: () => `${label} :: ${text.length > 300 ? `${text.slice(0, 300)}...` : text}`,
  } as MalformedCase;
}

const json = (label: string, body: Json): MalformedCase => malformed(label, JSON.stringify(body));

// ---------------------------------------------------------------------------------------------------------------

const REQUIRED: Path[] = [
  ['type'],
  ['dateApplication'],
  ['subtype'],
  ['subtype', 'type'],
  ['subtype', 'name'],
  ['subtype', 'code'],
  ['dose'],
  ['measure'],
  ['measure', 'type'],
  ['measure', 'name'],
  ['measure', 'symbol'],
  ['measure', 'code'],
  ['idcp'],
  ['applicator'],
  ['applicator', 'user'],
  ['applicator', 'user', 'type'],
  ['applicator', 'user', 'nif'],
  ['applicator', 'user', 'ropo'],
];

/** `amount`: a number or decimal text (a dose, the amounts a record writes as text), issue 26. */
type Kind = 'string' | 'number' | 'amount' | 'object' | 'array' | 'boolean';

/** Every field of the request with its JSON type; optional SIEX fields are added with a wrong type. */
const FIELDS: [Path, Kind][] = [
  [['type'], 'string'],
  [['dateApplication'], 'string'],
  [['subtype'], 'object'],
  [['subtype', 'type'], 'string'],
  [['subtype', 'name'], 'string'],
  [['subtype', 'code'], 'string'],
  [['dose'], 'amount'],
  [['measure'], 'object'],
  [['measure', 'type'], 'string'],
  [['measure', 'name'], 'string'],
  [['measure', 'symbol'], 'string'],
  [['measure', 'code'], 'number'],
  [['idcp'], 'array'],
  [['idcp', 0], 'string'],
  [['applicator'], 'object'],
  [['applicator', 'user'], 'object'],
  [['applicator', 'user', 'type'], 'string'],
  [['applicator', 'user', 'nif'], 'string'],
  [['applicator', 'user', 'ropo'], 'string'],
  [['infection'], 'object'],
  [['tj'], 'array'],
  [['efficacy'], 'object'],
  [['machine'], 'array'],
  [['manual'], 'boolean'],
  [['advisor'], 'object'],
  [['phenology'], 'object'],
  [['detail'], 'string'],
  [['batch'], 'string'],
  [['soup'], 'amount'],
  [['dt'], 'amount'],
  [['mdt'], 'object'],
  [['st'], 'amount'],
  [['mst'], 'object'],
  [['surface'], 'amount'],
  [['preventive'], 'string'],
  [['distributed'], 'string'],
  [['reviewed'], 'string'],
  [['pp'], 'string'],
  [['speed'], 'amount'],
  [['recipe'], 'string'],
];

const NUMBER_LIKE_STRINGS = [
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '0.61',
  '0,61',
  '0x10',
  '',
  ' 0.61',
  '61%',
  'null',
];

function wrongValue(kind: Kind): fc.Arbitrary<Json> {
  const scalars = {
    int: fc.integer(),
    dbl: fc.double({ noNaN: true, noDefaultInfinity: true }),
    bool: fc.boolean(),
    nul: fc.constant(null),
  };
  const str = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom(...NUMBER_LIKE_STRINGS));
  const arr = fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 });
  const obj = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
  switch (kind) {
    case 'string':
      return fc.oneof(scalars.int, scalars.dbl, scalars.bool, scalars.nul, arr, obj);
    case 'number':
      return fc.oneof(str, scalars.bool, scalars.nul, arr, obj);
    case 'amount':
      // Decimal text and non-negative numbers are amounts: only other text, negative numbers and other types are not.
      return fc.oneof(
        fc.constantFrom(...NUMBER_LIKE_STRINGS.filter((t) => !/^(\d+(\.\d+)?)?$/.test(t))),
        fc.double({ max: -Number.MIN_VALUE, noNaN: true, noDefaultInfinity: true }),
        scalars.bool,
        scalars.nul,
        arr,
        obj,
      );
    case 'object':
      return fc.oneof(str, scalars.int, scalars.bool, scalars.nul, arr);
    case 'array':
      return fc.oneof(str, scalars.int, scalars.bool, scalars.nul, obj);
    case 'boolean':
      return fc.oneof(str, scalars.int, scalars.nul, arr, obj);
  }
}

const KNOWN_KEYS: Record<string, string[]> = {
  '': [
    'type',
    'dateApplication',
    'subtype',
    'dose',
    'measure',
    'idcp',
    'applicator',
    'infection',
    'tj',
    'efficacy',
    'machine',
    'manual',
    'advisor',
    'phenology',
    'detail',
    'batch',
    'soup',
    'dt',
    'mdt',
    'st',
    'mst',
    'surface',
    'preventive',
    'distributed',
    'reviewed',
    'pp',
    'speed',
    'recipe',
  ],
  subtype: ['type', 'name', 'code'],
  measure: ['type', 'name', 'symbol', 'code'],
  applicator: ['user'],
  'applicator.user': ['type', 'nif', 'ropo'],
};

const unknownKey = (container: string) =>
  fc
    .oneof(
      fc.string({ minLength: 1, maxLength: 16 }),
      fc.constantFrom(
        '__proto__',
        'constructor',
        'toString',
        'id',
        'exported',
        'agrifarmId',
        'dateCreated',
        'Type',
        'DOSE',
        'dose ',
        'idcps',
      ),
    )
    .filter((k) => !KNOWN_KEYS[container].includes(k));

/**
 * Texts of `min` to `max` characters (code points, as the schema counts them; '𝔸' is two UTF-16 units): a repeated
 * character, so long strings cost nothing to generate.
 */
const hugeString = (min: number, max: number) =>
  fc
    .tuple(fc.constantFrom('x', 'é', '0', ' ', '𝔸', '"', '\\'), fc.integer({ min, max }))
    .map(([unit, n]) => unit.repeat(n));

// ---------------------------------------------------------------------------------------------------------------

export function malformedArbitraries(ctx: MalformedContext): Record<string, fc.Arbitrary<MalformedCase>> {
  const { base } = ctx;
  const date = (d: number, m: number, y: number, h = 10, mi = 0, s = 0) =>
    `${String(d).padStart(2, '0')}-${String(m).padStart(2, '0')}-${String(y).padStart(4, '0')} ${String(h).padStart(2, '0')}:${String(mi).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
  const farYear = fc.oneof(fc.integer({ min: 1, max: ctx.year - 2 }), fc.integer({ min: ctx.year + 2, max: 9999 }));

  return {
    randomJson: fc.jsonValue({ maxDepth: 4 }).map((v) => json('a random JSON value', v)),

    notJson: fc
      .oneof(
        fc.string({ maxLength: 80 }),
        fc.nat({ max: JSON.stringify(base).length - 1 }).map((n) => JSON.stringify(base).slice(0, n)),
        fc.constantFrom(
          `${JSON.stringify(base)}}`,
          `${JSON.stringify(base)} trailing`,
          JSON.stringify(base).replace('{', '{ // comment\n'),
          JSON.stringify(base).replace(/"dose":[^,]+/, '"dose":1e999'),
          JSON.stringify(base).replace(/"dose":[^,]+/, '"dose":NaN'),
          JSON.stringify(base).replace(/"dose":([^,]+)/, '"dose":$1,"dose":-1'),
          JSON.stringify(base).replace(/"type":"AgriPhytosanitary"/, '"type":"AgriPhytosanitary","type":"IDCP"'),
          "{'type':'AgriPhytosanitary'}",
          '',
          'null',
        ),
      )
      .map((text) => malformed(`raw text ${JSON.stringify(text.slice(0, 60))}`, text)),

    missingField: fc.constantFrom(...REQUIRED).map((p) => json(`without ${p.join('.')}`, without(base, p))),

    wrongType: fc.constantFrom(...FIELDS).chain(([p, kind]) =>
      wrongValue(kind)
        // null is "not given" for an optional field (issue 26): only a required one refuses it.
        .filter((v) => v !== null || REQUIRED.some((r) => r.join('.') === p.join('.')))
        .map((v) => json(`${p.join('.')} = ${JSON.stringify(v)}`, withValue(base, p, v))),
    ),

    unknownField: fc.constantFrom('', 'subtype', 'measure', 'applicator', 'applicator.user').chain((container) =>
      fc.tuple(unknownKey(container), fc.jsonValue({ maxDepth: 1 })).map(([k, v]) => {
        const path = container ? [...container.split('.'), k] : [k];
        return json(`unknown field ${path.join('.')}`, withValue(base, path, v));
      }),
    ),

    hugeString: fc
      .tuple(
        fc.constantFrom<Path>(
          ['dateApplication'],
          ['subtype', 'code'],
          ['subtype', 'name'],
          ['measure', 'name'],
          ['measure', 'symbol'],
          ['applicator', 'user', 'nif'],
          ['applicator', 'user', 'ropo'],
          ['idcp', 0],
          ['detail'],
          ['batch'],
          ['soup'],
          ['pp'],
          ['recipe'],
          ['type'],
        ),
        hugeString(2_001, 300_000),
      )
      .map(([p, s]) => json(`${p.join('.')} of ${[...s].length} characters`, withValue(base, p, s))),

    hugeOptionalText: fc
      .tuple(
        fc.constantFrom<[string, (s: string) => Json]>(
          ['infection.name', (s) => ({ type: 'TypeInfection', kind: 'enfermedad', id: '532', name: s })],
          ['tj[0].name', (s) => [{ type: 'TypeJustification', id: '1', name: s }]],
          ['efficacy.detail', (s) => ({ type: 'TypeEfficacy', id: '1', name: '', detail: s })],
          ['machine[0].name', (s) => [{ type: 'Machine', id: '1', name: s }]],
          ['mdt.name', (s) => ({ type: 'Measure', name: s, symbol: 'kg', code: 5 })],
        ),
        hugeString(2_001, 300_000),
      )
      .map(([[field, build], s]) =>
        json(`${field} of ${[...s].length} characters`, { ...base, [field.split(/[.[]/)[0]]: build(s) }),
      ),

    wrongNesting: fc
      .constantFrom<[string, Json]>(
        ['the body in an array', [base]],
        ['the body under a key', { AgriPhytosanitary: base }],
        ['applicator without user', { ...base, applicator: base.applicator.user }],
        ['user twice', { ...base, applicator: { user: { user: base.applicator.user } } }],
        ['applicator as an array', { ...base, applicator: [base.applicator] }],
        ['subtype in subtype', { ...base, subtype: { subtype: base.subtype } }],
        [
          'measure inside subtype',
          { ...(without(base, ['measure']) as object), subtype: { ...base.subtype, measure: base.measure } },
        ],
        ['idcp nested', { ...base, idcp: [base.idcp] }],
        ['idcp as listidcp objects', { ...base, idcp: base.idcp.map((i) => ({ idcp: Number(i) })) }],
        // A number is an idcp too since issue 38 (the farm lookup writes it so); a fraction is none.
        ['idcp as fractions', { ...base, idcp: base.idcp.map((i) => Number(i) + 0.5) }],
        ['dose as an object', { ...base, dose: { value: base.dose, measure: base.measure } }],
      )
      .map(([label, b]) => json(label, b)),

    badDate: fc
      .oneof(
        fc.constantFrom(
          '31-02-2026 10:00:00',
          '29-03-2026 02:30:00',
          '2026-05-14 10:00:00',
          '14/05/2026 10:00:00',
          '14-05-2026',
          '14-05-2026 10:00',
          '14-05-2026T10:00:00',
          '14-05-2026 10:00:00Z',
          ' 14-05-2026 10:00:00',
          '14-5-2026 10:00:00',
          '00-05-2026 10:00:00',
        ),
        // out of range parts in the right shape
        fc
          .tuple(fc.integer({ min: 32, max: 99 }), fc.integer({ min: 1, max: 12 }))
          .map(([d, m]) => date(d, m, ctx.year)),
        fc
          .tuple(fc.integer({ min: 1, max: 28 }), fc.integer({ min: 13, max: 99 }))
          .map(([d, m]) => date(d, m, ctx.year)),
        fc
          .tuple(fc.integer({ min: 24, max: 99 }), fc.integer({ min: 60, max: 99 }))
          .map(([h, s]) => date(1, 5, ctx.year, h, 0, s)),
        // real dates two years or more away: outside the window
        fc
          .tuple(fc.integer({ min: 1, max: 28 }), fc.integer({ min: 1, max: 12 }), farYear)
          .map(([d, m, y]) => date(d, m, y)),
        fc.string({ maxLength: 25 }),
      )
      .map((d) => json(`dateApplication ${JSON.stringify(d)}`, { ...base, dateApplication: d })),

    badDose: fc
      .oneof(
        fc.double({ max: 0, noNaN: true, noDefaultInfinity: true }),
        fc.double({ min: 0.63, max: 1e308, noNaN: true, noDefaultInfinity: true }),
        fc.double({ min: Number.MIN_VALUE, max: 0.59, noNaN: true }),
        fc.constantFrom<Json>('NaN', 'Infinity', '0,61', '-0.61', '', null, true, [0.61], { value: 0.61 }),
      )
      .map((dose) => json(`dose ${JSON.stringify(dose)}`, { ...base, dose })),

    badLocations: fc
      .oneof(
        fc.constant<Json>([]),
        fc.constant<Json>([base.idcp[0], base.idcp[0]]),
        fc.constant<Json>([ctx.wheatIdcp]),
        fc.constant<Json>(Array.from({ length: 51 }, (_, i) => String(900_000 + i))),
        fc.constantFrom<Json>(
          ['0'],
          ['01'],
          ['-1'],
          ['1.5'],
          [' 1'],
          ['abc'],
          [''],
          ['12345678901'],
          ['9999999999'],
          [null],
        ),
        fc
          .integer({ min: 1, max: 9_999_999_999 })
          .filter((n) => !ctx.knownIdcps.includes(String(n)))
          .map((n) => [base.idcp[0], String(n)]),
      )
      .map((idcp) => json(`idcp ${JSON.stringify(idcp)}`, { ...base, idcp })),

    badProductOrMeasure: fc
      .oneof(
        fc
          .constantFrom(...ctx.refusedProducts, 'ES-1234', 'ES-123456', 'es-11179', 'ES11179', '11179', 'ES-ABCDE')
          .map((code) => ['subtype.code', code] as [string, Json]),
        fc.constantFrom<Json>(0, -1, 1.5, 999, 17, 5, 2 ** 53).map((code) => ['measure.code', code] as [string, Json]),
        fc
          .constantFrom<Json>('kg/ha', 'L/ha', '', 'g/hL', '%%')
          .map((symbol) => ['measure.symbol', symbol] as [string, Json]),
        fc.constantFrom<Json>('measure', 'Measures', 'MEASURE').map((t) => ['measure.type', t] as [string, Json]),
        fc
          .constantFrom<Json>('TypePhytosanitary ', 'SubtypePhytosanitary', '')
          .map((t) => ['subtype.type', t] as [string, Json]),
        fc
          .constantFrom<Json>('agriPhytosanitary', 'AgriPhytosanitarys', 'IDCP')
          .map((t) => ['type', t] as [string, Json]),
      )
      .map(([p, v]) => json(`${p} = ${JSON.stringify(v)}`, withValue(base, p.split('.'), v))),

    badApplicator: fc
      .oneof(
        fc.constantFrom(...ctx.refusedCards).map((card) => ({ type: 'UserMetadata', ...card })),
        fc.constant({ type: 'UserMetadata', nif: ctx.otherNif, ropo: base.applicator.user.ropo }),
        fc.constant({ type: 'UserMetadata', nif: base.applicator.user.nif, ropo: 'ES-99999999' }),
        fc
          .constantFrom('ES-1234567', 'ES-123456789', 'es-91000001', '91000001', 'ES 91000001')
          .map((ropo) => ({ ...base.applicator.user, ropo })),
        // NIFs with a wrong control letter, or not NIF-shaped at all
        fc
          .oneof(
            fc
              .integer({ min: 0, max: 99_999_999 })
              .map((n) => `${String(n).padStart(8, '0')}${'TRWAGMYFPDXBNJZSQVHLCKE'[(n + 1) % 23]}`),
            fc.string({ maxLength: 12 }),
            fc.constantFrom('', 'X0000000A', '00000000'),
          )
          .map((nif) => ({ ...base.applicator.user, nif })),
        fc.constantFrom('userMetadata', 'User', '').map((type) => ({ ...base.applicator.user, type })),
      )
      .map((user) => json(`applicator ${JSON.stringify(user)}`, { ...base, applicator: { user } })),

    badSiexField: fc
      .constantFrom<[string, Json]>(
        ['infection', { type: 'TypeInfection', kind: 'virus', id: '532', name: '' }],
        ['infection', { type: 'TypeInfection', kind: 'enfermedad', id: 'abc', name: '' }],
        ['infection', { type: 'TypeInfection', kind: 'enfermedad', id: '99999', name: '' }],
        ['infection', { type: 'TypeInfection', kind: 'plaga', id: '532', name: '' }],
        ['infection', { type: 'TypeInfection', kind: 'enfermedad', id: '148', name: '' }],
        ['infection', { kind: 'enfermedad', id: '532' }],
        ['tj', Array.from({ length: 11 }, () => ({ type: 'TypeJustification', id: '1', name: '' }))],
        ['tj', [{ type: 'TypeJustification', id: '9999', name: '' }]],
        ['tj', { type: 'TypeJustification', id: '1', name: '' }],
        ['efficacy', { type: 'TypeEfficacy', id: '7', name: '', detail: '' }],
        ['machine', [{ type: 'Machine', id: '', name: '' }]],
        ['machine', [{ type: 'Maquina', id: '1', name: '' }]],
        ['machine', [{ type: 'Machine', id: '99999', name: '' }]],
        [
          'machine',
          [
            { type: 'Machine', id: '060303021', name: 'Atomizador' },
            { type: 'Machine', id: '060303021', name: 'Atomizador' },
          ],
        ],
        ['machine', [{ type: 'Machine', id: '060303021', name: '', inspection: '31-02-2026' }]],
        ['advisor', { type: 'UserMetadata', ropo: 'ES-123' }],
        ['phenology', { type: 'TypePhenology', id: '70', name: '' }],
        ['st', '0'],
        ['surface', '0'],
        ['surface', '50'],
        ['preventive', '2'],
        ['preventive', 'yes'],
        ['reviewed', 1],
        ['soup', '-1'],
        ['soup', '1,5'],
        ['surface', 'Infinity'],
        ['st', '.5'],
        ['speed', '1e3'],
        ['detail', 'x'.repeat(2001)],
        ['batch', 'b'.repeat(101)],
        ['mdt', { type: 'Measure', name: 'kg', symbol: 'kg', code: 99_999 }],
        ['mst', { type: 'Measure', name: 'ha', symbol: 'ha', code: 0 }],
      )
      .map(([k, v]) => json(`${k} = ${JSON.stringify(v).slice(0, 80)}`, { ...base, [k]: v })),
  };
}

/** How many runs each arbitrary gets, scaled to a total. */
export function runsOf(
  arbs: Record<string, unknown>,
  total: number,
  weights: Record<string, number> = {},
): Record<string, number> {
  const names = Object.keys(arbs);
  const w = (n: string) => weights[n] ?? 1;
  const sum = names.reduce((s, n) => s + w(n), 0);
  return Object.fromEntries(names.map((n) => [n, Math.max(10, Math.round((total * w(n)) / sum))]));
}
