import { z } from 'zod';
import { safeHarvestExample } from '../../api/examples';
import { safeHarvestQuerySchema, safeHarvestSchema } from '../../api/harvest-schemas';
import { Contract } from '../contract';
import { CORE_ROUTES } from '../routes';

export const safeHarvestContract = {
  ...CORE_ROUTES.safeHarvest,
  summary: 'When each crop location of a farm may be harvested',
  description:
    'For a harvest crew before it starts: each crop location of the farm campaign with `earliestHarvest`, the last ' +
    "day on which any stored treatment's pre-harvest interval (seclimit, calendar days from the application day) " +
    'ends, `safeOn`, whether `date` (default today in Madrid) is on or after it, and `setBy`, the record, product, ' +
    'application day and interval that set it. A tank mix counts each product with its own interval; "NP" (no ' +
    "interval applies) and an interval no use states limit nothing. The treatments of the same SIGPAC enclosure and crop count, in this campaign and the one before (a December treatment holds a January harvest), applied on or before `date`; a record on several crops holds each for its own crop's interval.",
  query: safeHarvestQuerySchema,
  success: { status: 200, description: 'every crop location, by idcp', schema: z.array(safeHarvestSchema) },
  errors: ['AGRIFARM_NOT_FOUND', 'INVALID_DATE'],
  example: safeHarvestExample,
} satisfies Contract;
