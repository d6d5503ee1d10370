import { z } from 'zod';

/** ROPO card levels of RD 1311/2012: a product's authorisation can require a level above the basic one. */
export const ropoLevels = ['basico', 'cualificado', 'fumigador', 'piloto'] as const;
export const ropoLevelSchema = z.enum(ropoLevels);
export type RopoLevel = z.infer<typeof ropoLevelSchema>;
