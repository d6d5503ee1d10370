import { z } from 'zod';
import { readFertilizationExample } from '../../api/examples';
import { agrifarmQuerySchema } from '../../api/farm-schemas';
import { fertilizationParamsSchema, fertilizeRecordViewSchema } from '../../api/fertilization-schemas';
import { Contract } from '../contract';
import { ETAG_HEADER } from '../record-headers';
import { ROUTES } from '../routes';

export const readFertilization = {
  ...ROUTES.readFertilization,
  summary: 'One fertilization',
  description:
    'The record as registration and amendment answer it (in an array), with its `ETag` for `If-Match`. A record of ' +
    'another farm campaign or client, a deleted one and an unknown one are the same 404 RECORD_NOT_FOUND.',
  params: fertilizationParamsSchema,
  query: agrifarmQuerySchema,
  success: { status: 200, description: 'the record', schema: z.array(fertilizeRecordViewSchema), headers: ETAG_HEADER },
  errors: ['AGRIFARM_NOT_FOUND', 'RECORD_NOT_FOUND'],
  example: readFertilizationExample,
} satisfies Contract;
