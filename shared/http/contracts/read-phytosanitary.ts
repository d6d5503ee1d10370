import { readExample } from '../../api/examples';
import { phytoRecordViewSchema, recordParamsSchema } from '../../api/phyto-schemas';
import { Contract } from '../contract';
import { ROUTES } from '../routes';
import { recordReadParts } from './record-read-parts';

export const readPhyto = {
  ...ROUTES.readPhytosanitary,
  ...recordReadParts(phytoRecordViewSchema),
  summary: 'One phytosanitary application',
  description:
    'The record as registration and amendment answer it (in an array), with its `ETag` for `If-Match`. A record of ' +
    'another farm campaign or client, a deleted one and an unknown one are the same 404 RECORD_NOT_FOUND.',
  params: recordParamsSchema,
  example: readExample,
} satisfies Contract;
