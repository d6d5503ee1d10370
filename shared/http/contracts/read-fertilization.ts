import { readFertilizationExample } from '../../api/examples';
import { fertilizationParamsSchema, fertilizeRecordViewSchema } from '../../api/fertilization-schemas';
import { Contract } from '../contract';
import { ROUTES } from '../routes';
import { recordReadParts } from './record-read-parts';

export const readFertilization = {
  ...ROUTES.readFertilization,
  ...recordReadParts(fertilizeRecordViewSchema),
  summary: 'One fertilization',
  description:
    'The record as registration and amendment answer it (in an array), with its `ETag` for `If-Match`. A record of ' +
    'another farm campaign or client, a deleted one and an unknown one are the same 404 RECORD_NOT_FOUND.',
  params: fertilizationParamsSchema,
  example: readFertilizationExample,
} satisfies Contract;
