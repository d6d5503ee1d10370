import type { SiexEntry } from '../siex/iuws-register';

/**
 * What SIEX holds of a farm campaign against what the gateway says SIEX holds, block by block: a block is its CUE
 * section and its IdAjena (each section's IdAjena is a sequence of its own, so the two together name it). Pure: the
 * use case reads both sides (shared/register/notebook-service.ts). No kind is named: each record comes with its
 * kind's section.
 */

/** The export states under which the gateway holds that SIEX has a record's blocks (shared/records/export-state.ts). */
export type HeldState = 'exported' | 'changed' | 'outcome-unknown';

/** A record of the gateway that SIEX should hold: its URN, its kind's section, and the IdAjena of each of its blocks. */
export interface GatewayRecordBlocks {
  record: string;
  section: string;
  state: HeldState;
  blocks: readonly number[];
}

interface MatchedBlock {
  section: string;
  idAjena: number;
  record: string;
}

/** A block of a record the gateway says SIEX holds, which SIEX does not hold. */
interface MissingBlock {
  section: string;
  idAjena: number;
  record: string;
  state: HeldState;
}

interface SectionCounts {
  section: string;
  matched: number;
  onlyInSiex: number;
  missingInSiex: number;
}

export interface NotebookReconciliation {
  /** Every section either side holds a block of, by name. */
  sections: SectionCounts[];
  matched: MatchedBlock[];
  /** Blocks SIEX holds that no record of the gateway names: entered elsewhere (another notebook, the farmer's own). */
  onlyInSiex: SiexEntry[];
  missingInSiex: MissingBlock[];
}

const key = (section: string, id: number) => `${section}\u0000${id}`;

/** Section by name, then IdAjena: one order for every list, whatever order either side read them in. */
const byBlock = (a: { section: string; idAjena: number }, b: { section: string; idAjena: number }) =>
  a.section < b.section ? -1 : a.section > b.section ? 1 : a.idAjena - b.idAjena;

export function reconcileNotebook(
  gateway: readonly GatewayRecordBlocks[],
  siex: readonly SiexEntry[],
): NotebookReconciliation {
  const held = new Map<string, SiexEntry>();
  // SIEX names a block once; should it list one twice, the first is the one counted.
  for (const entry of siex)
    if (!held.has(key(entry.section, entry.idAjena))) held.set(key(entry.section, entry.idAjena), entry);

  const matched: MatchedBlock[] = [];
  const missingInSiex: MissingBlock[] = [];
  const named = new Set<string>();
  for (const r of gateway) {
    for (const idAjena of new Set(r.blocks)) {
      const k = key(r.section, idAjena);
      named.add(k);
      if (held.has(k)) matched.push({ section: r.section, idAjena, record: r.record });
      else missingInSiex.push({ section: r.section, idAjena, record: r.record, state: r.state });
    }
  }
  const onlyInSiex: SiexEntry[] = [...held.entries()]
    .filter(([k]) => !named.has(k))
    .map(([, e]) => ({
      section: e.section,
      idAjena: e.idAjena,
      ...(e.notebook !== undefined ? { notebook: e.notebook } : {}),
      block: e.block,
    }));

  const counts = new Map<string, SectionCounts>();
  const count = (section: string, field: 'matched' | 'onlyInSiex' | 'missingInSiex') => {
    const c = counts.get(section) ?? { section, matched: 0, onlyInSiex: 0, missingInSiex: 0 };
    c[field]++;
    counts.set(section, c);
  };
  for (const m of matched) count(m.section, 'matched');
  for (const o of onlyInSiex) count(o.section, 'onlyInSiex');
  for (const m of missingInSiex) count(m.section, 'missingInSiex');

  return {
    sections: [...counts.values()].sort((a, b) => (a.section < b.section ? -1 : a.section > b.section ? 1 : 0)),
    matched: matched.sort(byBlock),
    onlyInSiex: onlyInSiex.sort(byBlock),
    missingInSiex: missingInSiex.sort(byBlock),
  };
}
