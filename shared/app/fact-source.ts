import type { DateTime } from 'luxon';
import type { ReferenceData } from '../catalog/reference-data';
import type { FarmIndex } from '../farms/farm-index';
import type { FarmReader } from '../farms/farm-store';
import { excerptKey } from '../records/kind-format';
import type { FactSource } from '../records/record-facts';
import type { KindStores } from './kind-parts';
import { RECORD_KINDS } from './record-kinds';

/**
 * The facts of a topic (shared/records/record-facts.ts) as every registered kind that publishes it states them: its
 * records of the farm's holding, in every campaign, applied from `since` on, each read with the farm campaign it is of
 * (a record names its locations by that campaign's idcp), from each publication's source (its excerpt of the record, or
 * the record). No kind is named: a kind publishes by its read side.
 */
export function factSource(p: { farms: Pick<FarmReader, 'index'>; kinds: KindStores }): FactSource {
  return {
    async read(farm: FarmIndex, topic: string, since: DateTime, reference: ReferenceData): Promise<unknown[]> {
      const publishers = RECORD_KINDS.flatMap((entry) => {
        const facts = entry.load.reads().publishes?.[topic];
        return facts ? [{ entry, facts }] : [];
      });
      const found = await Promise.all(
        publishers.map(async ({ entry, facts }) => {
          const excerpt = facts.excerpt && { key: excerptKey(topic, facts.excerpt), of: facts.excerpt.of };
          const rows = await p.kinds.of(entry).store.readHoldingSources(farm.meta, since.toMillis(), excerpt);
          const farms = new Map<number, FarmIndex | null>([[farm.meta.farmId, farm]]);
          const out: unknown[] = [];
          for (const { farmId, source } of rows) {
            if (!farms.has(farmId)) farms.set(farmId, await p.farms.index(farmId));
            const of = farms.get(farmId);
            if (of) out.push(...facts.facts(source, of, reference));
          }
          return out;
        }),
      );
      return found.flat();
    },
  };
}
