import { z } from 'zod';
import { farmLookupExample } from '../../api/examples';
import { Contract } from '../contract';
import { CORE_ROUTES } from '../routes';
import { farmLookupQuerySchema, farmSchema } from '../../api/farm-schemas';

export const farmLookup = {
  ...CORE_ROUTES.farmLookup,
  summary: 'Farm lookup by REA code and campaign year',
  description:
    'The first call of the flow: its `id` becomes `agrifarmId`. A farm the caller may not see is answered 404, exactly as an unknown one.',
  query: farmLookupQuerySchema,
  success: { status: 200, description: 'the farm campaign, as a one-item array', schema: z.array(farmSchema) },
  errors: ['REQUIRED', 'INVALID_VALUE', 'FARM_NOT_FOUND'],
  example: farmLookupExample,
} satisfies Contract;
