import { z } from 'zod';
import { historyExample } from '../../api/examples';
import { recordVersionSchema } from '../../api/history-schemas';
import { Contract } from '../contract';
import { ROUTES } from '../routes';
import { agrifarmQuerySchema } from '../../api/farm-schemas';
import { recordParamsSchema } from '../../api/phyto-schemas';

export const phytoHistory = {
  ...ROUTES.phytosanitaryHistory,
  summary: 'Every version of a phytosanitary application',
  description:
    'Oldest first: when, which client, what happened (created, amended, deleted, exported, re-exported) and every ' +
    'field that changed with its old and new value. Kept after the record is deleted.',
  params: recordParamsSchema,
  query: agrifarmQuerySchema,
  success: { status: 200, description: "the record's versions", schema: z.array(recordVersionSchema) },
  errors: ['AGRIFARM_NOT_FOUND', 'RECORD_NOT_FOUND', 'INVALID_VALUE', 'REQUIRED'],
  example: historyExample,
} satisfies Contract;
