import { benchDataset, seedRecords } from '../../bench/fixtures';
import { FarmStore } from '../../shared/farms/farm-store';
import { PhytoStore } from '../../shared/phyto/phyto-store';
import { farmOf, phytoFarm, seedPhyto, testClient, uniqueRea } from '../helpers/phyto-stack';
import { testTables } from '../helpers/storage';
import { isExported } from '../../shared/records/export-state';

/**
 * The bench seeds its list and export farms by writing rows straight into storage. Those rows must be the ones a
 * registration writes, or every scenario that reads them back (the export claims the records' pointers) fails in
 * the bench, which no other test runs: this test reads seeded records back through the store.
 */
it('seeded records are read back by the store as registered ones: pointer, record and first version', async () => {
  const rea = uniqueRea();
  await seedPhyto({ farms: [phytoFarm(rea)], clients: [testClient('bench-seed', [rea])] });
  const { farmId, key } = await farmOf(rea);
  const farm = (await new FarmStore(testTables(), 0).index(farmId))!;
  const first = 9_100_000_000;
  const count = 40; // more than one transaction's worth of rows
  await seedRecords(testTables(), farm, benchDataset(), count, first);

  const store = new PhytoStore(testTables());
  const ids = Array.from({ length: count }, (_, i) => first + i);
  const pointers = await store.readPointers(key, ids);
  expect([...pointers.keys()].sort()).toEqual(ids);
  expect(
    [...pointers.values()].every((p) => p.state === 'active' && p.version === 1 && !isExported(p.exportState)),
  ).toBe(true);
  const last = pointers.get(first + count - 1)!;
  expect((await store.readRecord(key, last.recordRowKey))?.record.id).toBe(
    `urn:ngsi-ld:AgriPhytosanitary:${first + count - 1}`,
  );
  expect((await store.readHistory(key, first))?.map((v) => v.kind)).toEqual(['created']);
  expect(await store.listKeys(key)).toHaveLength(count);
});
