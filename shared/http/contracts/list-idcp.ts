import { listIdcpExample } from '../../api/examples';
import { Contract } from '../contract';
import { CORE_ROUTES } from '../routes';
import { agrifarmQuerySchema, idcpSetSchema, listIdcpBodySchema } from '../../api/farm-schemas';

export const listIdcp = {
  ...CORE_ROUTES.listIdcp,
  summary: 'Crop-location identifiers (idcp) for a crop variety and SIGPAC enclosures',
  description:
    'Returns one stable integer idcp per crop variety and enclosure: the same value on every call and in the farm lookup. ' +
    'The crop is matched on `typecrop.id` and `code` (names are informational); SIGPAC codes match numerically (`046` = `46`). ' +
    'Success is 200: nothing is created, the identifiers were assigned when the farm was loaded. ' +
    'Several enclosures may be sent at once; any enclosure where the crop is not grown on the farm makes the request 404, listing every such enclosure.',
  query: agrifarmQuerySchema,
  body: listIdcpBodySchema,
  success: { status: 200, description: 'the identifiers, in the order of the request', schema: idcpSetSchema },
  errors: ['AGRIFARM_NOT_FOUND', 'CROP_NOT_FOUND', 'ENCLOSURE_NOT_FOUND'],
  example: listIdcpExample,
} satisfies Contract;
