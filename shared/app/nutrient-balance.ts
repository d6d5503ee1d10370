import type { NutrientBalance, NutrientBalanceQuery } from '../api/nutrient-balance-schemas';
import type { VersionedValue } from '../cache/versioned-value';
import type { ReferenceData } from '../catalog/reference-data';
import type { Client } from '../clients/client-store';
import type { FarmReader } from '../farms/farm-store';
import type { KindStores } from './kind-parts';
import { factSource } from './fact-source';
import { loaderOf, MODULES } from './modules';

const needing = loaderOf({ farms: MODULES.farms, balance: () => import('../rules/nutrient-balance') });

/**
 * The nutrient balance of the caller's farm campaign (shared/rules/nutrient-balance.ts): the plans' needs and the
 * fertilizations' nutrients, as the kinds publish them, from the campaign's first day on. No kind is named.
 */
export function nutrientBalanceUseCase(p: {
  farms: FarmReader;
  kinds: KindStores;
  reference: VersionedValue<ReferenceData>;
}): (client: Client, query: NutrientBalanceQuery) => Promise<NutrientBalance[]> {
  const facts = factSource(p);
  return needing(['farms', 'balance'], async ({ farms, balance }, client: Client, query: NutrientBalanceQuery) => {
    const farm = await farms.accessibleFarm(p.farms, client, query.agrifarmId);
    const since = balance.campaignStart(farm.meta.year);
    const reference = await p.reference.get();
    const [plans, inputs] = await Promise.all([
      facts.read(farm, balance.NUTRIENT_PLANS, since, reference),
      facts.read(farm, balance.NUTRIENT_INPUTS, since, reference),
    ]);
    return balance.farmNutrientBalance(plans, inputs, farm, query.idcp);
  });
}
