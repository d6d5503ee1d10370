import { deleteExample } from '../../api/examples';
import { recordParamsSchema } from '../../api/phyto-schemas';
import { Contract } from '../contract';
import { ROUTES } from '../routes';
import { recordDeleteParts } from './record-delete-parts';

export const deletePhyto = {
  ...ROUTES.deletePhytosanitary,
  ...recordDeleteParts,
  summary: 'Delete a phytosanitary application',
  description:
    'A record SIEX never received is deleted at once: 204, and it leaves the list and the count and interval rules. ' +
    'A record SIEX holds (exported, or registered with exported=1) is deleted there first: 202 with a job, as the ' +
    'export answers, which sends it to SIEX with `Borrar: true`; follow it with jobstatus and jobresult, and the ' +
    'outcome e-mail comes as for exports. The record leaves the list and the rules when SIEX accepted the deletion. ' +
    'Its history stays readable. A deleted record is 404; one in an unfinished export is 409.',
  params: recordParamsSchema,
  example: deleteExample,
} satisfies Contract;
