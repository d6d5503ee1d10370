import { z } from 'zod';

/** A crop location of a farm campaign as the views over its locations name it: its idcp, crop and variety. */
export const locationFields = {
  idcp: z.number().int().describe('the crop location, as the farm lookup and listidcp give it'),
  crop: z.object({
    typecrop: z.object({ id: z.string().describe('SIEX crop code'), name: z.string() }),
    code: z.number().int().describe('variety code'),
    name: z.string().describe('variety name'),
  }),
};
