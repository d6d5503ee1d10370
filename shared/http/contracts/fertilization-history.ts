import { z } from 'zod';
import { fertilizationHistoryExample } from '../../api/examples';
import { agrifarmQuerySchema } from '../../api/farm-schemas';
import { fertilizationParamsSchema } from '../../api/fertilization-schemas';
import { recordVersionSchema } from '../../api/history-schemas';
import { Contract } from '../contract';
import { ROUTES } from '../routes';

export const fertilizationHistory = {
  ...ROUTES.fertilizationHistory,
  summary: 'Every version of a fertilization',
  description:
    'Oldest first: when, which client, what happened (created, amended, deleted, exported, re-exported) and every ' +
    'field that changed with its old and new value. Kept after the record is deleted.',
  params: fertilizationParamsSchema,
  query: agrifarmQuerySchema,
  success: { status: 200, description: "the record's versions", schema: z.array(recordVersionSchema) },
  errors: ['AGRIFARM_NOT_FOUND', 'RECORD_NOT_FOUND', 'INVALID_VALUE', 'REQUIRED'],
  example: fertilizationHistoryExample,
} satisfies Contract;
