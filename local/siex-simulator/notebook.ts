import { CueSection } from '../../shared/siex/iuws-protocol';

/**
 * The blocks of CUE documents, every `ActividadesExplotacion` section alike, and the notebooks SIEX keeps of them: per
 * holding, section and IdAjena, the last version accepted.
 */

type Block = Record<string, unknown>;

/** An activity block of a document: its holding's REA, its section, and its IdAjena in that section. */
export interface LocatedBlock {
  codigoRea: string;
  section: string;
  id: number;
  block: Block;
}

interface NotebookItem {
  CodigoRea?: string;
  ActividadesExplotacion?: Record<string, Block[] | undefined>;
}

const itemsOf = (document: unknown): NotebookItem[] => (document as { CUADERNO?: NotebookItem[] }).CUADERNO ?? [];

/** The activity blocks of a (schema-valid) CUE document, in its order: item by item, section by section. */
export function documentBlocks(document: unknown, sections: readonly CueSection[]): LocatedBlock[] {
  const idAjena = new Map(sections.map((s) => [s.section, s.idAjena]));
  return itemsOf(document).flatMap(({ CodigoRea, ActividadesExplotacion }) =>
    Object.entries(ActividadesExplotacion ?? {}).flatMap(([section, blocks]) => {
      const field = idAjena.get(section);
      return field === undefined
        ? []
        : (blocks ?? []).map((block) => ({ codigoRea: CodigoRea ?? '', section, id: block[field] as number, block }));
    }),
  );
}

/** The blocks of one section of a CUE document, across every CUADERNO item. */
export function sectionBlocks(document: unknown, section: string): Block[] {
  return itemsOf(document).flatMap((item) => item.ActividadesExplotacion?.[section] ?? []);
}

/** A block SIEX holds in a farm's notebook: the last version accepted under its IdAjena. */
export interface NotebookEntry {
  codigoRea: string;
  idAjena: number;
  block: Block;
}

const key = (section: string, id: number) => `${section}:${id}`;

/** What SIEX holds: every block it ever accepted, and the last version of each one not deleted since. */
export class Notebooks {
  /** Every block ever accepted, by section and IdAjena (a later `Borrar` needs one). */
  private readonly known = new Set<string>();
  /** A block sent again under the same section and IdAjena replaces the earlier one; `Borrar: true` removes it. */
  private readonly held = new Map<string, { section: string; entry: NotebookEntry }>();

  knows(section: string, id: number): boolean {
    return this.known.has(key(section, id));
  }

  /** Takes an accepted block: kept as its latest version, or forgotten when it says `Borrar`. */
  keep({ codigoRea, section, id, block }: LocatedBlock): void {
    this.known.add(key(section, id));
    if (block.Borrar === true) this.held.delete(key(section, id));
    else this.held.set(key(section, id), { section, entry: { codigoRea, idAjena: id, block } });
  }

  /** One section's blocks held now, in IdAjena order (one holding's when `codigoRea` is given). */
  section(section: string, codigoRea?: string): NotebookEntry[] {
    return [...this.held.values()]
      .filter((h) => h.section === section && (codigoRea === undefined || h.entry.codigoRea === codigoRea))
      .map((h) => h.entry)
      .sort((a, b) => a.idAjena - b.idAjena);
  }

  /** Every section holding a block now, with its blocks in IdAjena order. */
  all(codigoRea?: string): Record<string, NotebookEntry[]> {
    const sections = [...new Set([...this.held.values()].map((h) => h.section))].sort();
    return Object.fromEntries(
      sections.map((s) => [s, this.section(s, codigoRea)] as const).filter(([, entries]) => entries.length > 0),
    );
  }

  clear(): void {
    this.known.clear();
    this.held.clear();
  }
}
