import { PestKind, pestKinds } from '../../domain/pest-kind';
import { SiexCode } from './catalogues';

/** A code of one of the four pest catalogues: codes repeat across them, so a code always travels with its kind. */
export interface PestRef {
  kind: PestKind;
  code: number;
}

/**
 * The groups of the four pest catalogues (ENFERMEDADES, PLAGAS, MALAS_HIERBAS, REGULADORES_CRECIMIENTO), read from
 * their dotted hierarchy codes: PLAGAS 21 "Araña roja común" is 6.1.3.4, inside 6.1.3 "Ácaros tetraníquidos", inside
 * 6.1 "Ácaros" (code 2), inside 6 "Artrópodos". The register authorises many uses for a group; a use for a group
 * covers every subgroup and species under it, never the other way round.
 */
export class PestHierarchy {
  private readonly paths = new Map<string, string>();
  private readonly byPathKey = new Map<string, PestRef>();
  private readonly children = new Map<string, PestRef[]>();

  constructor(catalogues: Partial<Record<PestKind, readonly SiexCode[]>>) {
    for (const kind of pestKinds) {
      for (const e of catalogues[kind] ?? []) {
        const code = Number(e.code);
        const path = e.path?.trim();
        if (!Number.isInteger(code) || code <= 0 || !path || !/^\d+(\.\d+)*$/.test(path)) continue;
        // A path twice in one catalogue would make the tree ambiguous: the first row keeps it.
        if (this.byPathKey.has(`${kind}:${path}`)) continue;
        this.paths.set(`${kind}:${code}`, path);
        this.byPathKey.set(`${kind}:${path}`, { kind, code });
      }
    }
    for (const [key, path] of this.paths) {
      const parent = this.parentOf(key.slice(0, key.indexOf(':')) as PestKind, path);
      if (!parent) continue;
      const k = refKey(parent);
      const [kind, code] = key.split(':') as [PestKind, string];
      this.children.set(k, [...(this.children.get(k) ?? []), { kind, code: Number(code) }]);
    }
  }

  /** The dotted hierarchy code (`6.1.3.4`), when the catalogue gives one. */
  pathOf(ref: PestRef): string | undefined {
    return this.paths.get(refKey(ref));
  }

  /** The code of a dotted hierarchy code, as the register writes it in `CodigoAgente`: the four catalogues' top levels differ. */
  byPath(path: string): PestRef | undefined {
    for (const kind of pestKinds) {
      const ref = this.byPathKey.get(`${kind}:${path.trim()}`);
      if (ref) return ref;
    }
    return undefined;
  }

  /** Whether a use authorised for `group` covers a treatment against `pest`: the same code, or one under it. */
  covers(group: PestRef, pest: PestRef): boolean {
    if (group.kind !== pest.kind) return false;
    if (group.code === pest.code) return true;
    const g = this.pathOf(group);
    const p = this.pathOf(pest);
    return g !== undefined && p !== undefined && p.startsWith(`${g}.`);
  }

  /** The group itself and every subgroup and species under it. */
  within(group: PestRef): PestRef[] {
    const out: PestRef[] = [group];
    for (let i = 0; i < out.length; i++) out.push(...(this.children.get(refKey(out[i]!)) ?? []));
    return out;
  }

  /** The groups a code belongs to, nearest first (Araña roja común: Ácaros tetraníquidos, Ácaros, Artrópodos). */
  groupsOf(pest: PestRef): PestRef[] {
    const out: PestRef[] = [];
    for (let current = pest; ;) {
      const path = this.pathOf(current);
      const parent = path === undefined ? undefined : this.parentOf(current.kind, path);
      if (!parent) return out;
      out.push(parent);
      current = parent;
    }
  }

  /** The nearest ancestor in the catalogue: a level may be missing (6.1.3.4 under 6.1 when 6.1.3 has no row). */
  private parentOf(kind: PestKind, path: string): PestRef | undefined {
    const parts = path.split('.');
    for (let n = parts.length - 1; n > 0; n--) {
      const ref = this.byPathKey.get(`${kind}:${parts.slice(0, n).join('.')}`);
      if (ref) return ref;
    }
    return undefined;
  }
}

function refKey(ref: PestRef): string {
  return `${ref.kind}:${ref.code}`;
}
