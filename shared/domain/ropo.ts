import { z } from 'zod';

/** ROPO card levels of RD 1311/2012: a product's authorisation can require a level above the basic one. */
export const ropoLevels = ['basico', 'cualificado', 'fumigador', 'piloto'] as const;
export const ropoLevelSchema = z.enum(ropoLevels);
export type RopoLevel = z.infer<typeof ropoLevelSchema>;

/**
 * An advisor's registration in ROPO (RD 1311/2012, arts. 11 and 12: advisors are entered in the register as such). It
 * is held on a card like a level, but it lets its holder apply nothing: no product ever requires it.
 */
const ADVISOR_LEVEL = 'asesor';
/** What a card can hold: the applicator levels, and the advisor registration. */
export const cardLevels = [...ropoLevels, ADVISOR_LEVEL] as const;
export const cardLevelSchema = z.enum(cardLevels);
export type CardLevel = z.infer<typeof cardLevelSchema>;

/**
 * Whether cards of these levels cover a product that requires `required`: a level covers itself, and `cualificado`
 * also covers what `basico` allows; `fumigador` and `piloto` cover only themselves (RD 1311/2012, art. 18).
 */
export function levelCovers(held: readonly CardLevel[], required: RopoLevel): boolean {
  return held.includes(required) || (required === 'basico' && held.includes('cualificado'));
}

/** Whether the card holds the advisor registration. */
export function isAdvisorCard(card: { levels: readonly CardLevel[] }): boolean {
  return card.levels.includes(ADVISOR_LEVEL);
}
