import { fertilizationHistoryExample } from '../../api/examples';
import { fertilizationParamsSchema } from '../../api/fertilization-schemas';
import { Contract } from '../contract';
import { ROUTES } from '../routes';
import { recordHistoryParts } from './record-history-parts';

export const fertilizationHistory = {
  ...ROUTES.fertilizationHistory,
  ...recordHistoryParts,
  summary: 'Every version of a fertilization',
  description:
    'Oldest first: when, which client, what happened (created, amended, deleted, exported, re-exported) and every ' +
    'field that changed with its old and new value. Kept after the record is deleted.',
  params: fertilizationParamsSchema,
  example: fertilizationHistoryExample,
} satisfies Contract;
