import type { DateTime } from 'luxon';
import type { SafeHarvest, SafeHarvestQuery } from '../api/harvest-schemas';
import type { VersionedValue } from '../cache/versioned-value';
import type { ReferenceData } from '../catalog/reference-data';
import type { Client } from '../clients/client-store';
import type { FarmReader } from '../farms/farm-store';
import type { KindStores } from './kind-parts';
import { factSource } from './fact-source';
import { loaderOf, MODULES } from './modules';

/** The harvest holds the kinds publish (today the treatments' pre-harvest intervals), and the view over them. */
const needing = loaderOf({
  farms: MODULES.farms,
  holds: () => import('../rules/harvest-holds'),
  harvest: () => import('../phyto/safe-harvest'),
  time: () => import('../time/date-time'),
});

/**
 * When each crop location of the caller's farm campaign may be harvested, from the harvest holds of every campaign of
 * the holding (shared/rules/harvest-holds.ts): the same facts, read the same way, as a harvest is judged by.
 */
export function safeHarvestUseCase(p: {
  farms: FarmReader;
  kinds: KindStores;
  reference: VersionedValue<ReferenceData>;
  now?: () => DateTime;
}): (client: Client, query: SafeHarvestQuery) => Promise<SafeHarvest[]> {
  const facts = factSource(p);
  return needing(
    ['farms', 'holds', 'harvest', 'time'],
    async ({ farms, holds, harvest, time }, client: Client, query: SafeHarvestQuery) => {
      const farm = await farms.accessibleFarm(p.farms, client, query.agrifarmId);
      const day = harvest.harvestDay(query.date, (p.now ?? (() => time.dateTimeNow()))());
      const since = holds.holdsSince(day.toISODate()!);
      const read = await facts.read(farm, holds.HARVEST_HOLDS, since, await p.reference.get());
      return harvest.safeHarvestDays(
        read.map((f) => holds.harvestHoldSchema.parse(f)),
        farm,
        day,
      );
    },
  );
}
