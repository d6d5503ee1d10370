import { z } from 'zod';
import { registerExample } from '../../api/examples';
import { Contract } from '../contract';
import { ROUTES } from '../routes';
import {
  MAX_IDCP_PER_RECORD,
  phytoRecordViewSchema,
  phytoRequestSchema,
  registerQuerySchema,
} from '../../api/phyto-schemas';
import { ETAG_HEADER } from '../record-headers';

export const registerPhyto = {
  ...ROUTES.registerPhytosanitary,
  summary: 'Register a phytosanitary application',
  description:
    'Validates the application against every rule (product in force, dose and unit, crop, pest, authorized months, ' +
    'applicator ROPO card and NIF, advisor card, crop locations, date window, minimum interval and maximum applications ' +
    'counting what is stored) and stores it. A ROPO card that is unknown, or whose holder is not the NIF given, is one ' +
    'answer (APPLICATOR_NOT_RECOGNISED, ADVISOR_NOT_RECOGNISED), byte for byte the same whatever the card: its state is told only ' +
    "with its holder's NIF. All violations are reported together; the status is 404 if any idcp is unknown, else 422 " +
    'if any product/dose/crop/time rule fails, else 400. Required: type, dateApplication, subtype, dose, measure, idcp ' +
    `(1 to ${MAX_IDCP_PER_RECORD} locations), applicator. Optional: the SIEX fields infection, tj, efficacy, machine, detail, batch, soup, dt/mdt, st/mst, ` +
    'surface, preventive, distributed, reviewed, pp, speed, recipe; export settles a record without infection, tj or efficacy ' +
    'as an error naming what is missing. A tank mix adds `mix`: up to 5 further products of the same pass, each judged ' +
    'against its own label as if applied alone (violations name it: `body.mix[1].dose`); a product twice is 400 ' +
    '`PRODUCT_REPEATED`, and more than 47 products × idcp 400 `MIX_TOO_LARGE`. Send an `Idempotency-Key` header to make retries safe: the same key and body ' +
    'return the first response and create nothing; the same key with another body is 422 (keys are remembered per client and holding).',
  query: registerQuerySchema,
  body: phytoRequestSchema,
  success: {
    status: 201,
    description: 'the created record, as a one-item array',
    schema: z.array(phytoRecordViewSchema),
    headers: ETAG_HEADER,
  },
  errors: [
    'AGRIFARM_NOT_FOUND',
    'IDCP_NOT_FOUND',
    'INVALID_DATE',
    'PRODUCT_REPEATED',
    'MIX_TOO_LARGE',
    'NIF_INVALID',
    'APPLICATOR_NOT_RECOGNISED',
    'ROPO_SUSPENDED',
    'ROPO_EXPIRED',
    'ROPO_LEVEL_INSUFFICIENT',
    'ADVISOR_NOT_RECOGNISED',
    'ADVISOR_NOT_IN_FORCE',
    'ADVISOR_NOT_REGISTERED',
    'MEASURE_MISMATCH',
    'PRODUCT_NOT_FOUND',
    'PRODUCT_NOT_IN_FORCE',
    'PRODUCT_NOT_FOR_CROP',
    'PEST_NOT_AUTHORIZED',
    'DOSE_ABOVE_MAX',
    'DOSE_BELOW_MIN',
    'DOSE_OUT_OF_RANGE',
    'DOSE_UNIT_INCOMPATIBLE',
    'OUTSIDE_AUTHORIZED_PERIOD',
    'MIN_INTERVAL',
    'MAX_APPLICATIONS',
    'DATE_IN_FUTURE',
    'DATE_TOO_OLD',
    'OUTSIDE_CAMPAIGN',
    'UNKNOWN_SIEX_CODE',
    'ADVISOR_REQUIRED',
    'IDEMPOTENCY_KEY_REUSED',
    'CONCURRENT_UPDATE',
  ],
  idempotent: true,
  example: registerExample,
} satisfies Contract;
