import { z } from 'zod';
import { Contract } from '../http/contract';
import {
  agrifarmQuerySchema,
  farmLookupQuerySchema,
  farmSchema,
  idcpSetSchema,
  listIdcpBodySchema,
} from './farm-schemas';

/** Every HTTP operation of the gateway, as data: routes, inputs, outputs and the error codes each may answer. */
export const farmLookup = {
  operationId: 'farmLookup',
  method: 'GET',
  routes: ['v1/siex/farms'],
  summary: 'Farm lookup by REA code and campaign year',
  description:
    'The first call of the flow: its `id` becomes `agrifarmId`. A farm the caller may not see is answered 404, exactly as an unknown one.',
  query: farmLookupQuerySchema,
  success: { status: 200, description: 'the farm campaign, as a one-item array', schema: z.array(farmSchema) },
  errors: ['REQUIRED', 'INVALID_VALUE', 'FARM_NOT_FOUND'],
} satisfies Contract;

export const listIdcp = {
  operationId: 'listIdcp',
  method: 'POST',
  routes: ['v1/siex/listidcp'],
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
} satisfies Contract;

export const contracts: Contract[] = [farmLookup, listIdcp];
