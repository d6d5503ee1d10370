import { z } from 'zod';
import { parseDate } from './dates';

/** A real calendar day written DD-MM-YYYY, the form of every date in the interface and the back-office dataset. */
export const daySchema = z
  .string()
  .refine((s) => parseDate(s) !== null, { message: 'expected a real date DD-MM-YYYY' });
/** A day that may be left empty (''), for "no end" dates. */
export const optionalDaySchema = z.union([z.literal(''), daySchema]).default('');
