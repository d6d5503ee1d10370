import { z } from 'zod';
import { daySchema } from '../domain/day-schema';
import { isValidPersonalNif, ROPO_RE } from '../domain/nif';
import { cardLevelSchema } from '../domain/ropo';

/** A person entered in the ROPO register as a professional applicator or an advisor, with the card levels they hold. */
export const applicatorSchema = z.strictObject({
  nif: z.string().refine(isValidPersonalNif, { message: 'not a valid NIF/NIE (control letter)' }),
  name: z.string().min(1),
  ropo: z.string().regex(ROPO_RE, 'expected ES- and 8 digits'),
  levels: z.array(cardLevelSchema).min(1),
  validUntil: daySchema,
  suspended: z.boolean().default(false),
});
export type Applicator = z.infer<typeof applicatorSchema>;
