import { deleteFertilizationExample } from '../../api/examples';
import { fertilizationParamsSchema } from '../../api/fertilization-schemas';
import { Contract } from '../contract';
import { ROUTES } from '../routes';
import { recordDeleteParts } from './record-delete-parts';

export const deleteFertilization = {
  ...ROUTES.deleteFertilization,
  ...recordDeleteParts,
  summary: 'Delete a fertilization',
  description:
    'As a treatment: a record SIEX never received is deleted at once (204) and its nitrogen leaves the limit; one ' +
    'SIEX holds is deleted there first, 202 with a job that sends it with `Borrar: true`, and leaves the list and the ' +
    'limit once SIEX accepted. Its history stays readable. A deleted record is 404; one in an unfinished export is 409.',
  params: fertilizationParamsSchema,
  example: deleteFertilizationExample,
} satisfies Contract;
