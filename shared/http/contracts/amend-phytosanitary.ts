import { z } from 'zod';
import { amendExample } from '../../api/examples';
import { Contract } from '../contract';
import { ROUTES } from '../routes';
import { agrifarmQuerySchema } from '../../api/farm-schemas';
import { phytoPatchSchema, phytoRecordViewSchema, recordParamsSchema } from '../../api/phyto-schemas';
import { ETAG_HEADER } from '../record-headers';
import { registerPhyto } from './register-phytosanitary';

export const amendPhyto = {
  ...ROUTES.amendPhytosanitary,
  summary: 'Correct or complete a phytosanitary application',
  description:
    'A JSON Merge Patch (RFC 7396, `application/merge-patch+json`; `application/json` is accepted too) of the ' +
    "registration request's fields. The merged request is validated whole, exactly as a registration (every " +
    'violation listed, nothing changed when one fails), except that the record does not count against itself in the ' +
    'count and interval rules, and the 7-day back-dating window applies only to a new application date: corrections ' +
    'are accepted all campaign long. Answers 200 with the record in an array, as on create, `dateModified` set and the new ' +
    '`ETag`. `If-Match` with an older ETag is 412. An exported record goes back to `exported: "0"`: the next export ' +
    'sends it under the same IdAjena, and SIEX replaces the earlier one. A record in an unfinished export is 409.',
  params: recordParamsSchema,
  query: agrifarmQuerySchema,
  body: phytoPatchSchema,
  bodyTypes: ['application/merge-patch+json', 'application/json'],
  success: {
    status: 200,
    description: 'the amended record',
    schema: z.array(phytoRecordViewSchema),
    headers: ETAG_HEADER,
  },
  errors: [
    ...registerPhyto.errors.filter((c) => c !== 'OUTSIDE_CAMPAIGN'),
    'OUTSIDE_CAMPAIGN',
    'RECORD_NOT_FOUND',
    'RECORD_IN_EXPORT',
    'PRECONDITION_FAILED',
  ],
  idempotent: true,
  ifMatch: true,
  example: amendExample,
} satisfies Contract;
