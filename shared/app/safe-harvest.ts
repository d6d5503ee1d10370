import type { DateTime } from 'luxon';
import type { SafeHarvest, SafeHarvestQuery } from '../api/harvest-schemas';
import type { Client } from '../clients/client-store';
import type { FarmReader } from '../farms/farm-store';
import { phytoEntry } from '../phyto/kind-entry';
import type { KindStores } from './kind-parts';
import { loaderOf, MODULES } from './modules';

/** The treatments' pre-harvest intervals, which only their records carry: the one operation that is one kind's. */
const needing = loaderOf({
  farms: MODULES.farms,
  harvest: () => import('../phyto/safe-harvest'),
  time: () => import('../time/date-time'),
});

/** When each crop location of the caller's farm campaign may be harvested, from the treatments stored. */
export function safeHarvestUseCase(p: {
  farms: FarmReader;
  kinds: KindStores;
  now?: () => DateTime;
}): (client: Client, query: SafeHarvestQuery) => Promise<SafeHarvest[]> {
  return needing(
    ['farms', 'harvest', 'time'],
    async ({ farms, harvest, time }, client: Client, query: SafeHarvestQuery) => {
      const farm = await farms.accessibleFarm(p.farms, client, query.agrifarmId);
      const day = harvest.harvestDay(query.date, (p.now ?? (() => time.dateTimeNow()))());
      const stored = await p.kinds.of(phytoEntry).store.readRecordsIn(farm.meta, undefined, undefined);
      return harvest.safeHarvest(
        stored.map((s) => s.record),
        farm,
        day,
      );
    },
  );
}
