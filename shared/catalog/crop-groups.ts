import { readFileSync } from 'node:fs';
import { z } from 'zod';
import shipped from './crop-groups.json';
import { normalizeName } from './siex-codes/names';
import { SiexCodes } from './siex-codes/siex-codes';

/**
 * The register names crops and crop groups in words ("Vid", "Frutales de pepita"); farms carry SIEX crop codes. The
 * mapping lives in `crop-groups.json` beside this file, shipped and editable (the admin CLI rebuilds before it runs,
 * so an edit takes effect on the next import); another file can be given instead.
 */
const cropGroupsFileSchema = z.strictObject({
  $comment: z.union([z.string(), z.array(z.string())]).optional(),
  groups: z.record(
    z.string().min(1),
    z.array(z.string().regex(/^(\d+|@.+)$/, "a SIEX crop code (digits) or '@' and another entry's name")).min(1),
  ),
});
export type CropGroupsFile = z.infer<typeof cropGroupsFileSchema>;

export class CropGroupsError extends Error {}

/** The shipped mapping, or the one in `file`; invalid content throws with every problem and its path. */
export function loadCropGroups(file?: string): CropGroupsFile {
  const content: unknown = file ? JSON.parse(readFileSync(file, 'utf8')) : shipped;
  const parsed = cropGroupsFileSchema.safeParse(content);
  if (!parsed.success) {
    const where = file ?? 'crop-groups.json';
    throw new CropGroupsError(
      `${where}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}

export interface CropResolution {
  codes: string[];
  /**
   * `group`: from the mapping file; `name`: a PRODUCTOS crop of that name; `produce`: the crops of a PROD_VEGETAL
   * product (produce, seed) or of one of the register's product groups.
   */
  by: 'group' | 'name' | 'produce';
}

/**
 * The register's names for groups of produce that PROD_VEGETAL has no product for, by the PROD_VEGETAL code
 * prefix of the products they gather (each checked against the catalogue by test/unit/catalog-register-scope.test.ts).
 * "Granos de cereales" is also a product of its own there (529, the grain mixtures): the group means every grain.
 */
const PRODUCE_GROUPS: Readonly<Record<string, string>> = {
  'Frutos cítricos': '2.1.1.',
  'Frutos de pepita': '2.1.2.',
  'Granos de cereales': '2.13.',
  'Granos de leguminosas': '2.3.',
  'Semillas oleaginosas': '2.4.',
  'Frutos secos': '2.27.',
  'Productos desecados': '2.18.',
  Simientes: '2.20.',
};

/**
 * Turns a register crop name into SIEX crop codes: the mapping file first (so it can widen or correct a name), then
 * the PRODUCTOS catalogue by name; failing both, the same with each comma-separated alternative ("Patata, papa") and
 * then with the singular of a plural ("Melones"). Answers are memoised: the register repeats the same few hundred
 * names 60,000 times.
 */
export class CropResolver {
  private readonly groups = new Map<string, string[]>();
  private readonly memo = new Map<string, CropResolution | null>();
  private produceIndex?: Map<string, string[]>;

  constructor(
    file: CropGroupsFile,
    private readonly codes: SiexCodes,
  ) {
    const raw = new Map(Object.entries(file.groups).map(([name, items]) => [normalizeName(name), { name, items }]));
    const expand = (key: string, trail: string[]): string[] => {
      const done = this.groups.get(key);
      if (done) return done;
      const entry = raw.get(key);
      if (!entry) throw new CropGroupsError(`crop-groups: '@${trail[trail.length - 1]}' names no entry`);
      if (trail.slice(0, -1).some((t) => normalizeName(t) === key)) {
        throw new CropGroupsError(`crop-groups: circular reference ${trail.join(' -> ')}`);
      }
      const out = new Set<string>();
      for (const item of entry.items) {
        if (item.startsWith('@'))
          for (const c of expand(normalizeName(item.slice(1)), [...trail, item.slice(1)])) out.add(c);
        else out.add(item);
      }
      const sorted = [...out].sort((a, b) => Number(a) - Number(b));
      this.groups.set(key, sorted);
      return sorted;
    };
    for (const [key, { name }] of raw) expand(key, [name]);
  }

  /** Codes the mapping file names that PRODUCTOS does not have (a typo, or a code FEGA has not published yet). */
  unknownCodes(): string[] {
    if (this.codes.size('PRODUCTOS') === 0) return [];
    const all = new Set([...this.groups.values()].flat());
    return [...all].filter((c) => !this.codes.get('PRODUCTOS', c)).sort((a, b) => Number(a) - Number(b));
  }

  resolve(cropName: string): CropResolution | undefined {
    if (!this.memo.has(cropName)) this.memo.set(cropName, this.lookup(normalizeName(cropName)));
    return this.memo.get(cropName) ?? undefined;
  }

  /**
   * Produce or seed by its PROD_VEGETAL product name ("Patatas", "Simiente de trigo", "Semillas de girasol")
   * or a register product group ("Frutos cítricos", "Granos de cereales"): the SIEX crops it comes from.
   */
  resolveProduce(name: string): CropResolution | undefined {
    const codes = this.produce().get(normalizeName(name));
    return codes ? { codes, by: 'produce' } : undefined;
  }

  /**
   * Whether the register's name is produce rather than a growing crop: a PROD_VEGETAL product or a product
   * group that is not also the name of a crop (PRODUCTOS) or of an entry of the mapping file. PROD_VEGETAL's "Menta",
   * "Nuez de cola" and "Té" are crops of those names, and the file's "Judías verdes" a field crop: those stay crops.
   */
  isProduce(name: string): boolean {
    const key = normalizeName(name);
    return this.produce().has(key) && !this.groups.has(key) && !this.codes.cropByName(key);
  }

  /** PROD_VEGETAL's products in force and the register's product groups, by name in comparison form, with their crops. */
  private produce(): Map<string, string[]> {
    if (this.produceIndex) return this.produceIndex;
    const products = this.codes.list('PROD_VEGETAL').filter((p) => !p.until);
    const index = new Map<string, string[]>();
    const add = (name: string, crops: string[]) => {
      if (crops.length > 0)
        index.set(
          normalizeName(name),
          [...new Set(crops)].sort((a, b) => Number(a) - Number(b)),
        );
    };
    for (const p of products) add(p.name, p.crops ?? []);
    for (const [group, prefix] of Object.entries(PRODUCE_GROUPS)) {
      add(
        group,
        products.filter((p) => p.path?.startsWith(prefix)).flatMap((p) => p.crops ?? []),
      );
    }
    this.produceIndex = index;
    return index;
  }

  private lookup(key: string): CropResolution | null {
    const candidates = [key, ...key.split(',').map((p) => p.trim())].filter(Boolean);
    for (const candidate of [...candidates, ...candidates.map(singular)]) {
      const group = this.groups.get(candidate);
      if (group) return { codes: group, by: 'group' };
      const crop = this.codes.cropByName(candidate);
      if (crop) return { codes: [crop.code], by: 'name' };
    }
    return null;
  }
}

/** Spanish plural to singular, word by word ("lechugas" -> "lechuga", "coles" -> "col"); only used as a second try. */
function singular(words: string): string {
  return words
    .split(' ')
    .map((w) =>
      w.length > 4 && /[^aeiou]es$/.test(w) ? w.slice(0, -2) : w.length > 3 && w.endsWith('s') ? w.slice(0, -1) : w,
    )
    .join(' ');
}
