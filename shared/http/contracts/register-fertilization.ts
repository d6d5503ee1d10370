import { z } from 'zod';
import { registerFertilizationExample } from '../../api/examples';
import { fertilizeRecordViewSchema, fertilizeRequestSchema } from '../../api/fertilization-schemas';
import { MAX_IDCP_PER_RECORD, registerQuerySchema } from '../../api/phyto-schemas';
import { Contract } from '../contract';
import { ETAG_HEADER } from '../record-headers';
import { ROUTES } from '../routes';

/**
 * The fertilization record's operations (`AgriFertilize`, RD 1051/2022) are the treatments' six, with the
 * fertilization's body, rules and error codes.
 */
export const registerFertilization = {
  ...ROUTES.registerFertilization,
  summary: 'Register a fertilization',
  description:
    'Validates the application of a fertilizer, manure or amendment against every rule and stores it: every code ' +
    'in force on the first day in its SIEX catalogue (good practices of the "Fertilización" scope only), the data ' +
    'MAT_FERTI\'s "Campos a registrar" asks of the material (its nutrients, its supplier by REGA, NIMA or NIF as the ' +
    'material takes, the manure treatment, the product name, heavy metals), the dates in the campaign, not in the ' +
    'future, and registered at most one month after the first day (RD 1051/2022, art. 4.1: the notebook takes an ' +
    "operation within a month, so the treatments' MAX_BACKDATE_DAYS does not apply), the crop locations (1 to " +
    `${MAX_IDCP_PER_RECORD}) and the fertilized area as for treatments. The record states the kg of N per ha it ` +
    'applies (dose × N total, through the density for a volume). On an enclosure the back office marks nitrate-vulnerable, livestock manure may bring at most 170 kg ' +
    'N/ha a campaign (Directive 91/676/EEC, RD 47/2022): a record that would pass it, counting every other record of ' +
    'the campaign whatever its date, is 422 NITROGEN_LIMIT_EXCEEDED naming the total and the limit. Slurry spread by ' +
    'a broadcast method needs a good practice RD 1051/2022 accepts (bands, injection, burial within 4 hours): 422 ' +
    'SLURRY_METHOD_NOT_ALLOWED otherwise. All violations are reported together; the status is 404 if any idcp is ' +
    'unknown, else 422 if any rule on the data fails, else 400. `Idempotency-Key` as on treatments: the same key and ' +
    'body return the first answer and store nothing; the same key with another body is 422.',
  query: registerQuerySchema,
  body: fertilizeRequestSchema,
  success: {
    status: 201,
    description: 'the created record, as a one-item array',
    schema: z.array(fertilizeRecordViewSchema),
    headers: ETAG_HEADER,
  },
  errors: [
    'AGRIFARM_NOT_FOUND',
    'IDCP_NOT_FOUND',
    'DATE_IN_FUTURE',
    'DATE_TOO_OLD',
    'OUTSIDE_CAMPAIGN',
    'UNKNOWN_SIEX_CODE',
    'MEASURE_MISMATCH',
    'TREATED_AREA_INVALID',
    'MATERIAL_DATA_MISSING',
    'FERTILIZER_DOSE_UNIT',
    'NITROGEN_LIMIT_EXCEEDED',
    'SLURRY_METHOD_NOT_ALLOWED',
    'IDEMPOTENCY_KEY_REUSED',
    'CONCURRENT_UPDATE',
  ],
  idempotent: true,
  example: registerFertilizationExample,
} satisfies Contract;
