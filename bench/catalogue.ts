import { CatalogStore, CATALOG_PARTITIONS } from '../shared/catalog/catalog-store';
import { readCatalogVersion } from '../shared/catalog/catalog-version';
import { readRowsByKey } from '../shared/store/batched-query';
import { TABLES, TableStore } from '../shared/store/tables';
import { startRunnerProcess } from '../local/runner/process';
import { Latency, measure, Row } from './measure';
import { gatewayMeasure } from './stack';
import { RoundTrips } from './storage-proxy';

/**
 * Issue 14, item 6: products for a crop over the full synthetic register (2,100 products, 60,000 uses), against the
 * same data read directly: the product rows the answer lists, read from the same Azurite through the same counting
 * proxy (batched point reads, as the stores read rows by key). Once with the production cache period (the catalogue
 * version is read once a minute: warm requests make no storage round trip), once revalidating on every request (the
 * catalogue version and the client are read each time: the round trips of a process whose period has just run out).
 * Each runner is started after the register import, so it holds the register from its first request. Figures only.
 */
export interface CatalogueBench {
  rows: Row[];
  crop: string;
  products: number;
  listed: number;
  pageBytes: number;
  allBytes: number;
}

interface CatalogueOptions {
  root: string;
  env: NodeJS.ProcessEnv;
  headers: Record<string, string>;
  proxy: RoundTrips;
  /** Storage through the proxy, for the floor. */
  tables: TableStore;
}

/** The crop with the most products: the largest answer a farm's form can ask for. */
function largestCrop(products: { uses: { cropTypeIds: string[] }[] }[]): string {
  const perCrop = new Map<string, number>();
  for (const p of products) {
    for (const crop of new Set(p.uses.flatMap((u) => u.cropTypeIds))) perCrop.set(crop, (perCrop.get(crop) ?? 0) + 1);
  }
  return [...perCrop].sort((a, b) => b[1] - a[1])[0]![0];
}

/** What the crop's answers hold: every product listed and the first page's, their sizes and the whole list's ETag. */
interface Answers {
  allCodes: string[];
  pageCodes: string[];
  allBytes: number;
  pageBytes: number;
  etag: string;
}

type Get = (path: string, extra?: Record<string, string>) => Promise<{ res: Response; text: string }>;

async function answersOf(get: Get, all: string, page: string): Promise<Answers> {
  const first = await get(all);
  const allCodes = (JSON.parse(first.text) as { code: string }[]).map((p) => p.code);
  return {
    allCodes,
    pageCodes: allCodes.slice(0, 100),
    allBytes: Buffer.byteLength(first.text),
    pageBytes: Buffer.byteLength((await get(page)).text),
    etag: first.res.headers.get('etag')!,
  };
}

/**
 * The three rows of one runner, started with the catalogue cache period given: a page of 100, the whole list, and
 * the whole list answered 304 to its ETag.
 */
async function catalogueRows(
  options: CatalogueOptions,
  crop: string,
  run: { label: string; cacheSeconds: string; note: string },
): Promise<{ rows: Row[]; answers: Answers }> {
  const runner = await startRunnerProcess({
    projectRoot: options.root,
    quiet: true,
    env: { ...options.env, REFERENCE_CACHE_SECONDS: run.cacheSeconds },
  });
  try {
    const get: Get = async (path, extra = {}) => {
      const res = await fetch(`${runner.url}${path}`, { headers: { ...options.headers, ...extra } });
      const text = await res.text();
      if (res.status !== 200 && res.status !== 304) throw new Error(`GET ${path}: ${res.status} ${text.slice(0, 300)}`);
      return { res, text };
    };
    const page = `/v1/catalog/products?crop=${crop}&page=1&page_size=100`;
    const all = `/v1/catalog/products?crop=${crop}`;
    const answers = await answersOf(get, all, page);
    const gateway = gatewayMeasure(options.proxy);
    const catalog = await options.tables.table(TABLES.catalog);
    const floor = (codes: string[], n: number) =>
      measure(async () => void (await readRowsByKey(catalog, CATALOG_PARTITIONS.product, codes)), n);
    const { label, note } = run;
    const pageRun = await gateway(300, () => get(page));
    const rows: Row[] = [
      { name: `${label}: page of 100`, ...figures(pageRun), floor: await floor(answers.pageCodes, 300), note },
    ];
    const allRun = await gateway(100, () => get(all));
    const listed = answers.allCodes.length;
    rows.push({ name: `${label}: all ${listed}`, ...figures(allRun), floor: await floor(answers.allCodes, 100), note });
    const notModified = await gateway(300, () => get(all, { 'If-None-Match': answers.etag }));
    rows.push({
      name: `${label}: 304`,
      ...figures(notModified),
      floor: await measure(async () => void (await readCatalogVersion(catalog)), 300),
      note: 'If-None-Match of all; floor = reading the catalogue version',
    });
    return { rows, answers };
  } finally {
    await runner.stop();
  }
}

const figures = (m: { latency: Latency; roundTrips: number }) => ({ gateway: m.latency, roundTrips: m.roundTrips });

export async function benchCatalogue(options: CatalogueOptions): Promise<CatalogueBench> {
  const products = await new CatalogStore(options.tables).loadProducts();
  const crop = largestCrop(products);
  const cached = await catalogueRows(options, crop, {
    label: 'crop products',
    cacheSeconds: '60',
    note: 'floor = reading the rows of the products listed',
  });
  const revalidating = await catalogueRows(options, crop, {
    label: 'crop products, revalidating',
    cacheSeconds: '0',
    note: 'catalogue version and client read per request',
  });
  const { allCodes, pageBytes, allBytes } = revalidating.answers;
  return {
    rows: [...cached.rows, ...revalidating.rows],
    crop,
    products: products.length,
    listed: allCodes.length,
    pageBytes,
    allBytes,
  };
}
