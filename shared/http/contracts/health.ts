import { z } from 'zod';
import { Health, healthSchema } from '../../api/health-schemas';
import { Contract } from '../contract';
import { CORE_ROUTES } from '../routes';

const example: Health = {
  status: 'ok',
  checks: {
    tables: { ok: true, ms: 9 },
    queues: {
      ok: true,
      waiting: { 'export-jobs': 0, 'export-jobs-poison': 0, 'webhook-deliveries': 0, 'webhook-deliveries-poison': 0 },
    },
    keyVaultReferences: { ok: true, unresolved: [] },
    siex: { outcome: 'reachable', ms: 84 },
  },
};

/** GET /v1/health: the availability test's call (infra/modules/alerts.bicep), through a product of this one operation. */
export const health = {
  ...CORE_ROUTES.health,
  summary: 'Whether the gateway can serve its clients now',
  description:
    'Checks, on each call, that the gateway reads its tables, reaches its export queues and has every setting it ' +
    'takes from Key Vault resolved: 200 when all do, 503 with the same body when one does not. SIEX is probed and ' +
    'reported, but does not decide the status. No SID key is needed and no client data is read; through API ' +
    'Management it takes a subscription key (the availability monitor has a product of this operation alone).',
  query: z.object({}),
  success: { status: 200, description: 'every check passed', schema: healthSchema },
  alsoSuccess: [{ status: 503, description: 'a check failed: the body says which', schema: healthSchema }],
  errors: [],
  example: { query: {}, response: example },
} satisfies Contract;
