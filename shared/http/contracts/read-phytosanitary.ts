import { z } from 'zod';
import { readExample } from '../../api/examples';
import { Contract } from '../contract';
import { ROUTES } from '../routes';
import { agrifarmQuerySchema } from '../../api/farm-schemas';
import { phytoRecordViewSchema, recordParamsSchema } from '../../api/phyto-schemas';
import { ETAG_HEADER } from '../record-headers';

export const readPhyto = {
  ...ROUTES.readPhytosanitary,
  summary: 'One phytosanitary application',
  description:
    'The record as registration and amendment answer it (in an array), with its `ETag` for `If-Match`. A record of ' +
    'another farm campaign or client, a deleted one and an unknown one are the same 404 RECORD_NOT_FOUND.',
  params: recordParamsSchema,
  query: agrifarmQuerySchema,
  success: { status: 200, description: 'the record', schema: z.array(phytoRecordViewSchema), headers: ETAG_HEADER },
  errors: ['AGRIFARM_NOT_FOUND', 'RECORD_NOT_FOUND'],
  example: readExample,
} satisfies Contract;
