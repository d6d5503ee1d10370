import { DateTime } from 'luxon';
import { ZONE } from '../../domain/dates';
import { PestKind, pestKinds } from '../../domain/pest-kind';
import { UnitCatalogue } from '../unit-catalogue';
import { CatalogueName, SiexCode } from './catalogues';
import { normalizeName } from './names';
import { PestHierarchy } from './pest-hierarchy';

/** Which catalogue holds the codes of each kind of pest (docs/architecture.md, "Export pipeline", `infection.kind`). */
export const PEST_CATALOGUE = {
  enfermedad: 'ENFERMEDADES',
  plaga: 'PLAGAS',
  mala_hierba: 'MALAS_HIERBAS',
  regulador: 'REGULADORES_CRECIMIENTO',
} as const satisfies Record<PestKind, CatalogueName>;

/** Why a code is or is not usable on a day, so callers can word the error. */
export type CodeStatus = 'valid' | 'unknown' | 'ended';

export interface PestMatch {
  kind: PestKind;
  code: number;
  name: string;
  /**
   * How the register's use was matched: its hierarchy code (`CodigoAgente`), its whole name, its scientific name, or
   * the genus entry (`Genus spp.`).
   */
  by: 'path' | 'name' | 'scientific' | 'genus';
}

/**
 * The SIEX catalogues in memory: pure lookups for validation (is this unit or pest code valid on the application
 * day?) and for the register import (which code has this name?). Build it with `SiexCodes.from` or load it from
 * storage with `loadSiexCodes`.
 *
 * Validity: a code is valid on a day when it exists and its Fecha de baja is empty or later than that day. The Fecha
 * de alta is not checked: it records when FEGA entered the row (every unit says 2023), not when the thing began to
 * exist, and checking it would reject correct older records.
 */
export class SiexCodes {
  private readonly byCode = new Map<string, Map<string, SiexCode>>();
  private readonly pestNames = new Map<string, Indexed>();
  private readonly pestScientific = new Map<string, Indexed>();
  private readonly cropNames = new Map<string, SiexCode>();
  /** The register repeats a few thousand pest names across 60,000 uses: each is worked out once. */
  private readonly pestMemo = new Map<string, PestMatch | undefined>();
  private unitCatalogue?: UnitCatalogue;
  private pestTree?: PestHierarchy;

  private constructor(catalogues: Readonly<Record<string, readonly SiexCode[]>>) {
    for (const [catalogue, entries] of Object.entries(catalogues)) {
      this.byCode.set(catalogue, new Map(entries.map((e) => [e.code, e])));
    }
    for (const kind of pestKinds) {
      for (const e of this.list(PEST_CATALOGUE[kind])) {
        const code = Number(e.code);
        if (!Number.isInteger(code) || code <= 0) continue;
        const match: PestMatch = { kind, code, name: e.name, by: 'name' };
        remember(this.pestNames, normalizeName(e.name), match, e);
        if (e.scientific) remember(this.pestScientific, normalizeName(e.scientific), match, e);
      }
    }
    for (const crop of this.list('PRODUCTOS')) {
      if (crop.until) continue;
      // "POMELO O TORONJA", "CAQUI o PALOSANTO": each alternative names the crop.
      for (const alternative of [crop.name, ...crop.name.split(/ o /i)]) {
        const key = normalizeName(alternative);
        if (key && !this.cropNames.has(key)) this.cropNames.set(key, crop);
      }
    }
  }

  /** The codes of each catalogue, by its name (CATALOGUES' and the record kinds'; shared/app/siex-catalogues.ts). */
  static from(catalogues: Readonly<Record<string, readonly SiexCode[]>>): SiexCodes {
    return new SiexCodes(catalogues);
  }

  /** Catalogues that hold at least one code. */
  loaded(): string[] {
    return [...this.byCode].filter(([, codes]) => codes.size > 0).map(([name]) => name);
  }

  size(catalogue: string): number {
    return this.byCode.get(catalogue)?.size ?? 0;
  }

  list(catalogue: string): SiexCode[] {
    return [...(this.byCode.get(catalogue)?.values() ?? [])];
  }

  get(catalogue: string, code: string | number): SiexCode | undefined {
    return this.byCode.get(catalogue)?.get(String(code).trim());
  }

  name(catalogue: string, code: string | number): string | undefined {
    return this.get(catalogue, code)?.name;
  }

  /** `onDate`: `DD-MM-YYYY` (the API's form), `YYYY-MM-DD`, or a luxon DateTime (taken in Madrid time). */
  status(catalogue: string, code: string | number, onDate: string | DateTime): CodeStatus {
    const entry = this.get(catalogue, code);
    if (!entry) return 'unknown';
    return entry.until && entry.until <= isoDayOf(onDate) ? 'ended' : 'valid';
  }

  isValid(catalogue: string, code: string | number, onDate: string | DateTime): boolean {
    return this.status(catalogue, code, onDate) === 'valid';
  }

  /** UNIDADES_MEDIDA with each unit's dimension, for dose comparisons and for placing the register's units. */
  get units(): UnitCatalogue {
    this.unitCatalogue ??= new UnitCatalogue(this.list('UNIDADES_MEDIDA'));
    return this.unitCatalogue;
  }

  /** The groups of the four pest catalogues, from their hierarchy codes. */
  get pests(): PestHierarchy {
    this.pestTree ??= new PestHierarchy(
      Object.fromEntries(pestKinds.map((kind) => [kind, this.list(PEST_CATALOGUE[kind])])),
    );
    return this.pestTree;
  }

  /**
   * The code of the register's hierarchy code (`CodigoAgente` "8.30.2.6" is ENFERMEDADES 148, Oídio de la vid), the
   * surest match of a use's pest; undefined when no catalogue has it.
   */
  pestByPath(path: string): PestMatch | undefined {
    const ref = path ? this.pests.byPath(path) : undefined;
    const name = ref && this.name(PEST_CATALOGUE[ref.kind], ref.code);
    return ref && name !== undefined ? { ...ref, name, by: 'path' } : undefined;
  }

  /**
   * The pest, disease, weed or growth-regulation code the register means by these words. The register and SIEX share
   * the EPPO-based naming ("Oídio de la vid, Erysiphe necator"), so the whole name is tried first; then the
   * scientific part after the last comma; then the genus entry (`Podosphaera spp.`), which covers every species of
   * it. Nothing is guessed beyond that.
   */
  pestByName(words: string): PestMatch | undefined {
    if (!this.pestMemo.has(words)) this.pestMemo.set(words, this.findPest(words));
    return this.pestMemo.get(words);
  }

  private findPest(words: string): PestMatch | undefined {
    const lookup = (key: string) => this.pestNames.get(key)?.match ?? this.pestScientific.get(key)?.match;
    const whole = normalizeName(words);
    const byName = this.pestNames.get(whole)?.match;
    if (byName) return byName;
    const scientific = whole.includes(',') ? whole.slice(whole.lastIndexOf(',') + 1).trim() : whole;
    const byScientific =
      this.pestScientific.get(scientific)?.match ?? (scientific !== whole ? lookup(scientific) : undefined);
    if (byScientific) return { ...byScientific, by: 'scientific' };
    const genus = /^([a-z]+) [a-z]/.exec(scientific)?.[1];
    const byGenus = genus ? lookup(`${genus} spp.`) : undefined;
    return byGenus ? { ...byGenus, by: 'genus' } : undefined;
  }

  /** A crop (PRODUCTOS) not withdrawn, by its name in words ("Tomate" is 197 TOMATE, "Caqui" is 213 CAQUI o PALOSANTO). */
  cropByName(words: string): SiexCode | undefined {
    return this.cropNames.get(normalizeName(words));
  }
}

interface Indexed {
  match?: PestMatch;
  ended: boolean;
}

/**
 * Indexes a name. A name two codes share (the scientific name "Bromus spp." is both the annual and the perennial
 * bromes) matches neither, since picking one would be a guess; a withdrawn code gives way to one that is not.
 */
function remember(index: Map<string, Indexed>, key: string, match: PestMatch, entry: SiexCode): void {
  if (!key) return;
  const ended = Boolean(entry.until);
  const current = index.get(key);
  if (!current || (current.ended && !ended)) index.set(key, { match, ended });
  else if (current.ended === ended && (current.match?.code !== match.code || current.match.kind !== match.kind)) {
    index.set(key, { ended });
  }
}

function isoDayOf(day: string | DateTime): string {
  if (typeof day !== 'string') return day.setZone(ZONE).toISODate() ?? '';
  const dmy = /^(\d{2})-(\d{2})-(\d{4})/.exec(day);
  return dmy ? `${dmy[3]}-${dmy[2]}-${dmy[1]}` : day.slice(0, 10);
}
