import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { PRODUCT_CODE_RE } from '../domain/nif';
import { ropoLevelSchema } from '../domain/ropo';
import shipped from './ropo-levels.json';

/**
 * The operators' card levels for register products whose level the register does not say: `ropo-levels.json` beside
 * this file (beside the crop groups, and like them shipped and editable), or another file given to the import.
 */
const ropoLevelsFileSchema = z.strictObject({
  $comment: z.union([z.string(), z.array(z.string())]).optional(),
  levels: z.record(z.string().regex(PRODUCT_CODE_RE, 'a product code ES- and 5 digits'), ropoLevelSchema),
});
export type RopoLevelsFile = z.infer<typeof ropoLevelsFileSchema>;

class RopoLevelsError extends Error {}

/** The shipped mapping, or the one in `file`; invalid content throws with every problem and its path. */
export function loadRopoLevels(file?: string): RopoLevelsFile {
  const content: unknown = file ? JSON.parse(readFileSync(file, 'utf8')) : shipped;
  const parsed = ropoLevelsFileSchema.safeParse(content);
  if (!parsed.success) {
    throw new RopoLevelsError(
      `${file ?? 'ropo-levels.json'}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}
