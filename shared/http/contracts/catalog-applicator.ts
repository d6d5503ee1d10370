import { applicatorCardExample } from '../../api/examples';
import { Contract } from '../contract';
import { CORE_ROUTES } from '../routes';
import { CACHE_HEADERS } from '../conditional';
import { applicatorCardSchema, applicatorQuerySchema } from '../../api/catalog-schemas';
import { CATALOGUE_CACHING, NOT_MODIFIED } from './catalogue-caching';

export const applicatorCard = {
  ...CORE_ROUTES.applicatorCard,
  summary: "Check an applicator's ROPO card",
  description:
    "When the ROPO number and the holder's NIF both match one registered card: its levels (and the product levels " +
    'they cover), validity and whether it is suspended, so that an ERP can warn before a treatment is recorded. ' +
    'Otherwise 404, the same whichever of the two is wrong. Applicators are people: there is no listing, and no name ' +
    'or NIF in the answer. ' +
    CATALOGUE_CACHING,
  query: applicatorQuerySchema,
  success: { status: 200, description: 'the card', schema: applicatorCardSchema, headers: CACHE_HEADERS },
  alsoSuccess: [NOT_MODIFIED],
  errors: ['REQUIRED', 'INVALID_VALUE', 'NIF_INVALID', 'APPLICATOR_NOT_FOUND'],
  ifNoneMatch: true,
  example: applicatorCardExample,
} satisfies Contract;
