import { z } from 'zod';
import { amendFertilizationExample } from '../../api/examples';
import { agrifarmQuerySchema } from '../../api/farm-schemas';
import {
  fertilizationParamsSchema,
  fertilizationPatchSchema,
  fertilizeRecordViewSchema,
} from '../../api/fertilization-schemas';
import { Contract } from '../contract';
import { ETAG_HEADER } from '../record-headers';
import { ROUTES } from '../routes';
import { registerFertilization } from './register-fertilization';

export const amendFertilization = {
  ...ROUTES.amendFertilization,
  summary: 'Correct or complete a fertilization',
  description:
    'A JSON Merge Patch (RFC 7396, `application/merge-patch+json`; `application/json` is accepted too) of the ' +
    "registration request's fields, validated whole as a registration (every violation listed, nothing changed when " +
    'one fails), except that the record does not count against itself in the nitrogen limit and the month to register ' +
    'it in (RD 1051/2022, art. 4.1) applies only to a new first day. Answers 200 with the record in an array, ' +
    '`dateModified` set and the new `ETag`. `If-Match` with an older ETag is 412. An exported record goes back to ' +
    '`exported: "0"` and the next ' +
    'export sends it under the same IdAjenaFerti. A record in an unfinished export is 409.',
  params: fertilizationParamsSchema,
  query: agrifarmQuerySchema,
  body: fertilizationPatchSchema,
  bodyTypes: ['application/merge-patch+json', 'application/json'],
  success: {
    status: 200,
    description: 'the amended record',
    schema: z.array(fertilizeRecordViewSchema),
    headers: ETAG_HEADER,
  },
  errors: [...registerFertilization.errors, 'RECORD_NOT_FOUND', 'RECORD_IN_EXPORT', 'PRECONDITION_FAILED'],
  idempotent: true,
  ifMatch: true,
  example: amendFertilizationExample,
} satisfies Contract;
