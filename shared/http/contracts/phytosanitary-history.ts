import { historyExample } from '../../api/examples';
import { recordParamsSchema } from '../../api/phyto-schemas';
import { Contract } from '../contract';
import { ROUTES } from '../routes';
import { recordHistoryParts } from './record-history-parts';

export const phytoHistory = {
  ...ROUTES.phytosanitaryHistory,
  ...recordHistoryParts,
  summary: 'Every version of a phytosanitary application',
  description:
    'Oldest first: when, which client, what happened (created, amended, deleted, exported, re-exported) and every ' +
    'field that changed with its old and new value. Kept after the record is deleted.',
  params: recordParamsSchema,
  example: historyExample,
} satisfies Contract;
