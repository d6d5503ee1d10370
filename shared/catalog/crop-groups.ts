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
  /** `group`: from the mapping file; `name`: a PRODUCTOS crop of that name. */
  by: 'group' | 'name';
}

/**
 * Turns a register crop name into SIEX crop codes: the mapping file first (so it can widen or correct a name), then
 * the PRODUCTOS catalogue by name; failing both, the same with each comma-separated alternative ("Patata, papa") and
 * then with the singular of a plural ("Melones"). Answers are memoised: the register repeats the same few hundred
 * names 60,000 times.
 */
export class CropResolver {
  private readonly groups = new Map<string, string[]>();
  private readonly memo = new Map<string, CropResolution | null>();

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
