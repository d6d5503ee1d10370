import { CueSection, NotebookResponse } from '../../shared/siex/iuws-protocol';

/**
 * The blocks of CUE documents, every `ActividadesExplotacion` section alike, and the notebooks SIEX keeps of them: per
 * holding, section and IdAjena, the last version accepted.
 */

type Block = Record<string, unknown>;

/**
 * An activity block of a document: its holding's REA, its section, its IdAjena in that section, and the notebook that
 * sent it (the CUADERNO item's `IdCuaderno`, when it names one).
 */
export interface LocatedBlock {
  codigoRea: string;
  section: string;
  id: number;
  notebook?: number;
  block: Block;
}

interface NotebookItem {
  CodigoRea?: string;
  IdCuaderno?: number;
  ActividadesExplotacion?: Record<string, Block[] | undefined>;
}

const itemsOf = (document: unknown): NotebookItem[] => (document as { CUADERNO?: NotebookItem[] }).CUADERNO ?? [];

/** The activity blocks of a (schema-valid) CUE document, in its order: item by item, section by section. */
export function documentBlocks(document: unknown, sections: readonly CueSection[]): LocatedBlock[] {
  const idAjena = new Map(sections.map((s) => [s.section, s.idAjena]));
  return itemsOf(document).flatMap(({ CodigoRea, IdCuaderno, ActividadesExplotacion }) =>
    Object.entries(ActividadesExplotacion ?? {}).flatMap(([section, blocks]) => {
      const field = idAjena.get(section);
      return field === undefined
        ? []
        : (blocks ?? []).map((block) => ({
            codigoRea: CodigoRea ?? '',
            section,
            id: block[field] as number,
            ...(IdCuaderno !== undefined ? { notebook: IdCuaderno } : {}),
            block,
          }));
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
  /** The notebook that sent it, when its document named one (`IdCuaderno`). */
  notebook?: number;
  block: Block;
}

const DAY = /^(\d{2})\/(\d{2})\/(\d{4})$/;

/**
 * The campaign (calendar year, as the gateway's farm campaigns) a block is of: the year of its first date, the
 * schema's dates being `Fecha…`/`Fec…` fields in DD/MM/YYYY (FechaInicio, FechaActuacion, Fecha, FechaGeneracion,
 * FecEstablecimientoCub). A block without one is of no campaign, and is answered for every campaign.
 */
function campaignOf(block: Block): number | undefined {
  for (const [field, value] of Object.entries(block)) {
    const day = field.startsWith('Fec') && typeof value === 'string' ? DAY.exec(value) : null;
    if (day) return Number(day[3]);
  }
  return undefined;
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
  keep({ codigoRea, section, id, notebook, block }: LocatedBlock): void {
    this.known.add(key(section, id));
    if (block.Borrar === true) this.held.delete(key(section, id));
    else
      this.held.set(key(section, id), {
        section,
        entry: { codigoRea, idAjena: id, ...(notebook !== undefined ? { notebook } : {}), block },
      });
  }

  /** Drops a block SIEX held, as a SIEX that lost it (the control API's, to test a reconciliation); false if none. */
  forget(section: string, id: number): boolean {
    return this.held.delete(key(section, id));
  }

  /**
   * What `exportar` answers for a holding's campaign: the CUE envelope, one CUADERNO item per notebook that sent its
   * blocks (blocks of a document that named none in an item without `IdCuaderno`), each section's blocks in IdAjena
   * order; a block of no campaign is in every campaign's answer, and without `campaign` every block is.
   */
  exported(codigoRea: string, campaign?: number): NotebookResponse {
    const items = new Map<number | undefined, Record<string, Block[]>>();
    for (const [section, entries] of Object.entries(this.all(codigoRea))) {
      for (const e of entries) {
        const year = campaignOf(e.block);
        if (campaign !== undefined && year !== undefined && year !== campaign) continue;
        const activities = items.get(e.notebook) ?? {};
        (activities[section] ??= []).push(e.block);
        items.set(e.notebook, activities);
      }
    }
    return {
      CUADERNO: [...items].map(([notebook, activities]) => ({
        CodigoRea: codigoRea,
        ...(notebook !== undefined ? { IdCuaderno: notebook } : {}),
        ActividadesExplotacion: activities,
      })),
    };
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
