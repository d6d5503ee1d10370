import type { DateTime } from 'luxon';
import type { VersionedValue } from '../cache/versioned-value';
import type { ReferenceData } from '../catalog/reference-data';
import type { Client } from '../clients/client-store';
import type { FarmReader } from '../farms/farm-store';
import type { ViewEntry } from '../records/kind-entry';
import type { KindStores } from './kind-parts';
import { factSource } from './fact-source';
import { loaderOf, MODULES } from './modules';

const needing = loaderOf({ farms: MODULES.farms, time: () => import('../time/date-time') });

/** A view of the caller's farm campaign: its answer to the view's query, as parsed by its contract. */
export type KindViewUseCase = (client: Client, query: { agrifarmId: string }) => Promise<unknown[]>;

/**
 * The views the kinds bring (their entries' `views`), each for the caller's farm campaign: the farm the query names,
 * when the caller may read it, then the view's answer from the facts the kinds publish of the farm's holding
 * (./fact-source.ts) and the clock. No kind is named.
 */
export function kindViewUseCases(p: {
  farms: FarmReader;
  kinds: KindStores;
  reference: VersionedValue<ReferenceData>;
  now?: () => DateTime;
}): (view: ViewEntry) => KindViewUseCase {
  const facts = factSource(p);
  return (view) =>
    needing(['farms', 'time'], async ({ farms, time }, client: Client, query: { agrifarmId: string }) => {
      const farm = await farms.accessibleFarm(p.farms, client, query.agrifarmId);
      return view.load().view(query, {
        farm,
        facts: async (topic, since) => facts.read(farm, topic, since, await p.reference.get()),
        now: () => (p.now ?? (() => time.dateTimeNow()))(),
      });
    });
}
