import { z } from 'zod';

/** ROPO card levels of RD 1311/2012: a product's authorisation can require a level above the basic one. */
export const ropoLevels = ['basico', 'cualificado', 'fumigador', 'piloto'] as const;
export const ropoLevelSchema = z.enum(ropoLevels);
export type RopoLevel = z.infer<typeof ropoLevelSchema>;

/**
 * Whether cards of these levels cover a product that requires `required`: a level covers itself, and `cualificado`
 * also covers what `basico` allows; `fumigador` and `piloto` cover only themselves (RD 1311/2012, art. 18).
 */
export function levelCovers(held: readonly RopoLevel[], required: RopoLevel): boolean {
  return held.includes(required) || (required === 'basico' && held.includes('cualificado'));
}
