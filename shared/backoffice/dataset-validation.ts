import { Dataset, datasetSchema } from './dataset-schema';
import { sigpacCode } from '../farms/sigpac';
import { parseDate } from '../domain/dates';
import { formatPath } from '../http/validation';

export interface DatasetProblem {
  path: string;
  message: string;
}

/** Reports each value seen more than once, at the path of every repeat. */
function duplicates<T>(items: T[], key: (t: T) => string, path: (i: number) => string, what: string): DatasetProblem[] {
  const seen = new Map<string, number>();
  const out: DatasetProblem[] = [];
  items.forEach((item, i) => {
    const k = key(item);
    const first = seen.get(k);
    if (first === undefined) seen.set(k, i);
    else out.push({ path: path(i), message: `${what} repeats ${path(first)}` });
  });
  return out;
}

/**
 * Validates a whole dataset before anything is written: the schema first, then the rules that span entries
 * (uniqueness, date order). Every problem is reported with its JSON path, never only the first.
 */
export function validateDataset(input: unknown): { dataset: Dataset; problems: [] } | { dataset: null; problems: DatasetProblem[] } {
  const parsed = datasetSchema.safeParse(input);
  if (!parsed.success) {
    return {
      dataset: null,
      problems: parsed.error.issues.flatMap((i) =>
        i.code === 'unrecognized_keys'
          ? i.keys.map((k) => ({ path: formatPath('$', [...i.path, k]), message: 'unknown field' }))
          : [{ path: formatPath('$', i.path), message: i.message }],
      ),
    };
  }
  const d = parsed.data;
  const problems: DatasetProblem[] = [
    ...duplicates(d.clients, (c) => c.id, (i) => `$.clients[${i}].id`, 'client id'),
    ...duplicates(d.clients, (c) => c.sidKey, (i) => `$.clients[${i}].sidKey`, 'SID key'),
    ...duplicates(d.clients, (c) => c.apiKey, (i) => `$.clients[${i}].apiKey`, 'API key'),
    ...duplicates(d.applicators, (a) => a.ropo, (i) => `$.applicators[${i}].ropo`, 'ROPO number'),
    ...duplicates(d.products, (p) => p.code, (i) => `$.products[${i}].code`, 'product code'),
    ...duplicates(d.farms, (f) => `${f.rea}~${f.year}`, (i) => `$.farms[${i}]`, 'farm REA and year'),
  ];
  d.clients.forEach((c, i) => {
    if (c.sidKey === c.apiKey) problems.push({ path: `$.clients[${i}].apiKey`, message: 'must differ from sidKey' });
  });
  d.products.forEach((p, i) => {
    if (p.lastUse && parseDate(p.lastUse)! < parseDate(p.expires)!) {
      problems.push({ path: `$.products[${i}].lastUse`, message: 'last-use date is before the expiry date' });
    }
    if (parseDate(p.expires)! < parseDate(p.registered)!) {
      problems.push({ path: `$.products[${i}].expires`, message: 'expiry date is before the registration date' });
    }
  });
  d.farms.forEach((f, fi) => {
    problems.push(
      ...duplicates(f.crops, (c) => `${c.typecrop.id}~${c.code}`, (i) => `$.farms[${fi}].crops[${i}]`, 'crop variety'),
    );
    f.crops.forEach((c, ci) => {
      const at = `$.farms[${fi}].crops[${ci}]`;
      problems.push(...duplicates(c.parcels, (p) => p.name, (i) => `${at}.parcels[${i}].name`, 'parcel name'));
      const enclosures = c.parcels.flatMap((p, pi) => p.sigpac.map((s, si) => ({ s, path: `${at}.parcels[${pi}].sigpac[${si}]` })));
      problems.push(...duplicates(enclosures, (e) => sigpacCode(e.s), (i) => enclosures[i].path, 'enclosure'));
    });
  });
  return problems.length === 0 ? { dataset: d, problems: [] } : { dataset: null, problems };
}
