import { KindEntry } from '../records/kind-entry';
import { RebuiltHistory, rebuildHistory } from '../records/rebuild-history';
import { RECORD_KINDS } from './record-kinds';
import { UseCaseParts } from './use-cases';

/**
 * Every kind's history rows of one holding rebuilt from its records (shared/records/rebuild-history.ts), in the
 * registry's order: the operators' remedy for a farm whose changes answer 503 STORED_DATA_UNREADABLE, and for totals an
 * earlier rule counted otherwise (`npm run admin -- rebuild-history REA`).
 */
export async function rebuildHistories(
  parts: Pick<UseCaseParts, 'kinds' | 'farms' | 'reference'>,
  rea: string,
): Promise<{ kind: string; rebuilt: RebuiltHistory }[]> {
  const reference = await parts.reference.get();
  const out: { kind: string; rebuilt: RebuiltHistory }[] = [];
  // Erased to any kind: each kind's store holds what its own kind writes, which is all the rebuild hands it.
  for (const entry of RECORD_KINDS as readonly KindEntry[]) {
    const rebuilt = await rebuildHistory(
      entry.load.kind(),
      parts.kinds.of(entry).store,
      { rea },
      (farmId) => parts.farms.index(farmId),
      reference,
    );
    out.push({ kind: entry.label.many, rebuilt });
  }
  return out;
}
