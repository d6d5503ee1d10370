import { CatalogStore, CATALOG_PARTITIONS } from '../shared/catalog/catalog-store';
import { readCatalogVersion } from '../shared/catalog/catalog-version';
import { readRowsByKey } from '../shared/store/batched-query';
import { TABLES, TableStore } from '../shared/store/tables';
import { startRunnerProcess } from '../local/runner/process';
import { measure, Row } from './measure';
import { StorageProxy } from './storage-proxy';

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

export async function benchCatalogue(options: {
  root: string;
  env: NodeJS.ProcessEnv;
  headers: Record<string, string>;
  proxy: StorageProxy;
  /** Storage through the proxy, for the floor. */
  tables: TableStore;
}): Promise<CatalogueBench> {
  const { proxy, headers } = options;
  const products = await new CatalogStore(options.tables).loadProducts();
  // The crop with the most products: the largest answer a farm's form can ask for.
  const perCrop = new Map<string, number>();
  for (const p of products) {
    for (const crop of new Set(p.uses.flatMap((u) => u.cropTypeIds))) perCrop.set(crop, (perCrop.get(crop) ?? 0) + 1);
  }
  const [crop] = [...perCrop].sort((a, b) => b[1] - a[1])[0]!;
  const catalog = await options.tables.table(TABLES.catalog);
  const rows: Row[] = [];
  let listed = 0;
  let pageBytes = 0;
  let allBytes = 0;

  const run = async (label: string, cacheSeconds: string, note: string) => {
    const runner = await startRunnerProcess({
      projectRoot: options.root,
      quiet: true,
      env: { ...options.env, REFERENCE_CACHE_SECONDS: cacheSeconds },
    });
    try {
      const get = async (path: string, extra: Record<string, string> = {}) => {
        const res = await fetch(`${runner.url}${path}`, { headers: { ...headers, ...extra } });
        const text = await res.text();
        if (res.status !== 200 && res.status !== 304)
          throw new Error(`GET ${path}: ${res.status} ${text.slice(0, 300)}`);
        return { res, text };
      };
      const page = `/v1/catalog/products?crop=${crop}&page=1&page_size=100`;
      const all = `/v1/catalog/products?crop=${crop}`;
      const first = await get(all);
      const allCodes = (JSON.parse(first.text) as { code: string }[]).map((p) => p.code);
      listed = allCodes.length;
      allBytes = Buffer.byteLength(first.text);
      const pageCodes = allCodes.slice(0, 100);
      pageBytes = Buffer.byteLength((await get(page)).text);
      const etag = first.res.headers.get('etag')!;

      const gateway = async (n: number, path: string, extra?: Record<string, string>) => {
        let counted = 0;
        const latency = await measure(async (i) => {
          if (i === 0) {
            proxy.reset();
            counted = 0;
          }
          await get(path, extra);
          if (i >= 0) counted++;
        }, n);
        return { latency, roundTrips: proxy.count() / counted };
      };
      const floor = (codes: string[], n: number) =>
        measure(async () => void (await readRowsByKey(catalog, CATALOG_PARTITIONS.product, codes)), n);

      const pageRun = await gateway(300, page);
      rows.push({
        name: `${label}: page of 100`,
        gateway: pageRun.latency,
        floor: await floor(pageCodes, 300),
        roundTrips: pageRun.roundTrips,
        note,
      });
      const allRun = await gateway(100, all);
      rows.push({
        name: `${label}: all ${listed}`,
        gateway: allRun.latency,
        floor: await floor(allCodes, 100),
        roundTrips: allRun.roundTrips,
        note,
      });
      const notModified = await gateway(300, all, { 'If-None-Match': etag });
      rows.push({
        name: `${label}: 304`,
        gateway: notModified.latency,
        floor: await measure(async () => void (await readCatalogVersion(catalog)), 300),
        roundTrips: notModified.roundTrips,
        note: 'If-None-Match of all; floor = reading the catalogue version',
      });
    } finally {
      await runner.stop();
    }
  };

  await run('crop products', '60', 'floor = reading the rows of the products listed');
  await run('crop products, revalidating', '0', 'catalogue version and client read per request');
  return { rows, crop, products: products.length, listed, pageBytes, allBytes };
}
