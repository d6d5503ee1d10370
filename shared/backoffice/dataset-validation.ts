import { Dataset, datasetSchema } from './dataset-schema';
import { sigpacCode, SIGPAC_FIELDS } from '../farms/sigpac';
import { parseDate } from '../domain/dates';
import { formatPath } from '../domain/validation';
import { isHashedKey, keyProblem, storedKeyHash } from '../clients/keys';

export interface DatasetProblem {
  path: string;
  message: string;
}

/** The input as it came, read defensively: the rules that span entries run even where some fields are broken. */
type Loose = Record<string, unknown>;
const list = (v: unknown): Loose[] =>
  Array.isArray(v) ? v.map((x) => (x && typeof x === 'object' ? (x as Loose) : {})) : [];
const text = (v: unknown): string | undefined =>
  typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
const field = (o: Loose, ...keys: string[]): string | undefined => {
  let v: unknown = o;
  for (const k of keys) v = v && typeof v === 'object' ? (v as Loose)[k] : undefined;
  return text(v);
};

/** Reports each value seen more than once, at the path of every repeat; entries without the value are skipped. */
function duplicates(
  items: Loose[],
  key: (t: Loose) => string | undefined,
  path: (i: number) => string,
  what: string,
): DatasetProblem[] {
  const seen = new Map<string, number>();
  const out: DatasetProblem[] = [];
  items.forEach((item, i) => {
    const k = key(item);
    if (k === undefined) return;
    const first = seen.get(k);
    if (first === undefined) seen.set(k, i);
    else out.push({ path: path(i), message: `${what} repeats ${path(first)}` });
  });
  return out;
}

/** The day a field names, or undefined when it is absent or not a real date (the schema reports that). */
function day(o: Loose, key: string) {
  const t = field(o, key);
  return t ? (parseDate(t) ?? undefined) : undefined;
}

function enclosureKey(s: Loose): string | undefined {
  const [prov, town, aggr, zone, pol, parc, enc] = SIGPAC_FIELDS.map((f) => field(s, f));
  if (prov === undefined || town === undefined || aggr === undefined || zone === undefined) return undefined;
  if (pol === undefined || parc === undefined || enc === undefined) return undefined;
  return sigpacCode({ prov, town, aggr, zone, pol, parc, enc });
}

/** What must be unique across entries: client ids, ROPO numbers, product codes, a farm per REA and year. */
function identifierRepeats(
  clients: Loose[],
  applicators: Loose[],
  products: Loose[],
  farms: Loose[],
): DatasetProblem[] {
  return [
    ...duplicates(
      clients,
      (c) => field(c, 'id'),
      (i) => `$.clients[${i}].id`,
      'client id',
    ),
    ...duplicates(
      applicators,
      (a) => field(a, 'ropo'),
      (i) => `$.applicators[${i}].ropo`,
      'ROPO number',
    ),
    ...duplicates(
      products,
      (p) => field(p, 'code'),
      (i) => `$.products[${i}].code`,
      'product code',
    ),
    ...duplicates(
      farms,
      (f) => (field(f, 'rea') && field(f, 'year') ? `${field(f, 'rea')}~${field(f, 'year')}` : undefined),
      (i) => `$.farms[${i}]`,
      'farm REA and year',
    ),
  ];
}

/** The fields of a client that hold a key, as the dataset names them. */
const KEY_FIELDS = ['sidKey', 'previousSidKey', 'apiKey'] as const;

/** A key field's stored hash, whichever way the dataset writes it; undefined when absent or malformed. */
function keyHash(c: Loose, name: (typeof KEY_FIELDS)[number]): string | undefined {
  const key = field(c, name);
  return key === undefined || keyProblem(key) ? undefined : storedKeyHash(key);
}

/**
 * Every key is one credential: no key twice, in one client or across clients, compared by hash so a key in clear and
 * the same key hashed are the same key. A client's SID keys find it, and its API key proves the call is its own: the
 * same value in both would make them one credential.
 */
function keyRepeats(clients: Loose[]): DatasetProblem[] {
  const keys = clients.flatMap((c, i) =>
    KEY_FIELDS.map((name) => ({ hash: keyHash(c, name), path: `$.clients[${i}].${name}` })),
  );
  return duplicates(
    keys,
    (k) => text(k.hash),
    (i) => keys[i]!.path,
    'key',
  );
}

/** Clear keys, where the import refuses them (docs/backoffice-dataset.md, "Keys"): each one, by path. */
function clearKeys(clients: Loose[]): DatasetProblem[] {
  return clients.flatMap((c, i) =>
    KEY_FIELDS.flatMap((name) => {
      const key = field(c, name);
      return key !== undefined && !isHashedKey(key)
        ? [
            {
              path: `$.clients[${i}].${name}`,
              message:
                'a key in clear: write its hash (sha256: and the SHA-256 of the key in hex; npm run admin -- new-key prints a key with its hash). Clear keys load only into a local store',
            },
          ]
        : [];
    }),
  );
}

/** A product's days in their order: registered, then expiry, then last use. */
function productDayOrder(products: Loose[]): DatasetProblem[] {
  return products.flatMap((p, i) => {
    const [registered, expires, lastUse] = [day(p, 'registered'), day(p, 'expires'), day(p, 'lastUse')];
    const problems: DatasetProblem[] = [];
    if (lastUse && expires && lastUse < expires) {
      problems.push({ path: `$.products[${i}].lastUse`, message: 'last-use date is before the expiry date' });
    }
    if (expires && registered && expires < registered) {
      problems.push({ path: `$.products[${i}].expires`, message: 'expiry date is before the registration date' });
    }
    return problems;
  });
}

/**
 * The crops' declared areas (the REA DGCs') on one enclosure cannot cover more than the enclosure: each on its own,
 * and all of the farm's crops on it together (hundredths, as the REA writes them).
 */
function declaredAreaProblems(crops: Loose[], fi: number): DatasetProblem[] {
  const out: DatasetProblem[] = [];
  const byEnclosure = new Map<string, { total: number; dimension: number; path: string }>();
  crops.forEach((c, ci) =>
    list(c.parcels).forEach((p, pi) =>
      list(p.sigpac).forEach((s, si) => {
        const key = enclosureKey(s);
        const area = Number(field(s, 'cropArea'));
        const dimension = Number(field(s, 'dimension'));
        if (key === undefined || !Number.isFinite(area) || !Number.isFinite(dimension)) return;
        const path = `$.farms[${fi}].crops[${ci}].parcels[${pi}].sigpac[${si}].cropArea`;
        if (Math.round(area * 100) > Math.round(dimension * 100)) {
          out.push({ path, message: `${area} ha is more than the enclosure's ${dimension} ha` });
          return;
        }
        const seen = byEnclosure.get(key) ?? { total: 0, dimension, path };
        seen.total += Math.round(area * 100);
        byEnclosure.set(key, seen);
        if (seen.total > Math.round(Math.max(seen.dimension, dimension) * 100))
          out.push({
            path,
            message: `the crops of enclosure ${key} declare ${seen.total / 100} ha, more than its ${dimension} ha`,
          });
      }),
    ),
  );
  return out;
}

/** Within a farm: each crop variety once, and within a crop each parcel name and each SIGPAC enclosure once. */
function farmRepeats(farm: Loose, fi: number): DatasetProblem[] {
  const crops = list(farm.crops);
  const problems = duplicates(
    crops,
    (c) =>
      field(c, 'typecrop', 'id') !== undefined && field(c, 'code') !== undefined
        ? `${field(c, 'typecrop', 'id')}~${field(c, 'code')}`
        : undefined,
    (i) => `$.farms[${fi}].crops[${i}]`,
    'crop variety',
  );
  crops.forEach((c, ci) => {
    const at = `$.farms[${fi}].crops[${ci}]`;
    const parcels = list(c.parcels);
    problems.push(
      ...duplicates(
        parcels,
        (p) => field(p, 'name'),
        (i) => `${at}.parcels[${i}].name`,
        'parcel name',
      ),
    );
    const enclosures = parcels.flatMap((p, pi) =>
      list(p.sigpac).map((s, si) => ({ s, path: `${at}.parcels[${pi}].sigpac[${si}]` })),
    );
    problems.push(
      ...duplicates(
        enclosures.map((e) => e.s),
        enclosureKey,
        (i) => enclosures[i]?.path ?? at,
        'enclosure',
      ),
    );
  });
  return problems;
}

/** Uniqueness and date order across entries (what a schema of single entries cannot say). */
function crossEntryProblems(input: Loose, options: DatasetOptions): DatasetProblem[] {
  const clients = list(input.clients);
  const products = list(input.products);
  const farms = list(input.farms);
  return [
    ...identifierRepeats(clients, list(input.applicators), products, farms),
    ...keyRepeats(clients),
    ...(options.clearKeys ? [] : clearKeys(clients)),
    ...productDayOrder(products),
    ...farms.flatMap(farmRepeats),
    ...farms.flatMap((f, fi) => declaredAreaProblems(list(f.crops), fi)),
  ];
}

export interface DatasetOptions {
  /** Whether keys may be in clear (a local store) or must be hashed (an Azure environment); default: in clear too. */
  clearKeys: boolean;
}

/**
 * Validates a whole dataset before anything is written: every entry against the schema, and the rules that span
 * entries (uniqueness, date order, hashed keys where required), all reported together with their JSON paths — never
 * only the first problem.
 */
export function validateDataset(
  input: unknown,
  options: DatasetOptions = { clearKeys: true },
): { dataset: Dataset; problems: [] } | { dataset: null; problems: DatasetProblem[] } {
  const parsed = datasetSchema.safeParse(input);
  const problems: DatasetProblem[] = parsed.success
    ? []
    : parsed.error.issues.flatMap((i) =>
        i.code === 'unrecognized_keys'
          ? i.keys.map((k) => ({ path: formatPath('$', [...i.path, k]), message: 'unknown field' }))
          : [{ path: formatPath('$', i.path), message: i.message }],
      );
  if (input && typeof input === 'object' && !Array.isArray(input))
    problems.push(...crossEntryProblems(input as Loose, options));
  return parsed.success && problems.length === 0 ? { dataset: parsed.data, problems: [] } : { dataset: null, problems };
}
