import { DateTime } from 'luxon';
import { dateTimeNow } from '../time/date-time';
import { CatalogStore, contentHash } from '../catalog/catalog-store';
import { bumpDirectoryVersion } from '../catalog/catalog-version';
import { ClientStore } from '../clients/client-store';
import { formatDateTime, isoDay } from '../domain/dates';
import { FarmStore } from '../farms/farm-store';
import { renderFarmView } from '../farms/farm-view';
import { Counters, IdBlocks } from '../store/counters';
import { TABLES, TableStore } from '../store/tables';
import { Dataset } from './dataset-schema';
import { Farm } from '../farms/farm';
import { buildFarmIndex, IdKind } from './farm-index-builder';

interface SectionReport {
  added: number;
  changed: number;
  unchanged: number;
}

export type ImportReport = Record<'clients' | 'applicators' | 'products' | 'farms', SectionReport>;

const empty = (): SectionReport => ({ added: 0, changed: 0, unchanged: 0 });

/**
 * Writes a validated dataset. Table Storage has no cross-partition transactions, so all-or-nothing is obtained by
 * validating everything first (validateDataset) and writing idempotently: an import cut short by a storage fault is
 * completed by running it again, and the same file twice changes nothing.
 */
export async function importDataset(
  dataset: Dataset,
  tables: TableStore,
  now: DateTime = dateTimeNow(),
): Promise<ImportReport> {
  const report: ImportReport = { clients: empty(), applicators: empty(), products: empty(), farms: empty() };

  const clients = new ClientStore(tables);
  for (const c of dataset.clients) {
    const outcome = await clients.upsert({ ...c, expiresIso: c.expires ? isoDay(c.expires) : '' });
    report.clients[outcome]++;
  }

  const catalog = new CatalogStore(tables);
  const applicators = await catalog.upsertApplicators(dataset.applicators);
  report.applicators = {
    added: applicators.added.length,
    changed: applicators.changed.length,
    unchanged: applicators.unchanged,
  };
  const products = await catalog.upsertProducts(dataset.products);
  report.products = { added: products.added.length, changed: products.changed.length, unchanged: products.unchanged };

  const farms = new FarmStore(tables, 0);
  const counters = new Counters(tables);
  const blocks = new Map<IdKind, IdBlocks>();
  const takeId = (kind: IdKind) => {
    if (!blocks.has(kind)) blocks.set(kind, new IdBlocks(counters, kind, kind === 'idcp' ? 1000 : 50));
    return blocks.get(kind)!.take();
  };
  for (const farm of dataset.farms) {
    // Every farm imported has its data account recorded, unchanged ones too: the requests then find it there, and
    // importing again records the farms imported before accounts were (docs/operations.md, "Storage accounts").
    await tables.farmAccounts.record(farm.rea);
    report.farms[await importFarm(farm, farms, takeId, formatDateTime(now))]++;
  }
  // The gateway keeps unknown clients and farms in memory too: this tells it that some may exist now.
  const { clients: c, farms: f } = report;
  if (c.added + c.changed + f.added + f.changed > 0) await bumpDirectoryVersion(await tables.table(TABLES.catalog));
  return report;
}

async function importFarm(
  farm: Farm,
  farms: FarmStore,
  takeId: (kind: IdKind) => Promise<number>,
  now: string,
): Promise<keyof SectionReport> {
  const lookup = await farms.lookupInfo(farm.rea, farm.year);
  const previous = lookup ? await farms.readIndex(lookup.farmId) : null;
  const index = await buildFarmIndex(farm, previous?.index ?? null, now, takeId);
  const view = JSON.stringify([renderFarmView(farm, index)]);
  const hash = contentHash([index, view]);
  if (previous?.hash === hash) return 'unchanged';
  await farms.save(index, view, hash, previous?.rows ?? 0, lookup?.rows ?? 0);
  return previous ? 'changed' : 'added';
}
