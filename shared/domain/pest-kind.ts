import { z } from 'zod';

/** The four SIEX pest catalogues a treatment can target; codes repeat across them, so a code always travels with its kind. */
export const pestKinds = ['enfermedad', 'plaga', 'mala_hierba', 'regulador'] as const;
export const pestKindSchema = z.enum(pestKinds);
export type PestKind = z.infer<typeof pestKindSchema>;
