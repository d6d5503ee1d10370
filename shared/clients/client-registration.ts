import { z } from 'zod';
import { webhookUrlSchema } from '../notify/webhook-address';
import { optionalDaySchema } from '../domain/day-schema';
import { keyProblem } from './keys';

/**
 * A key as a dataset carries it: its hash (`sha256:` and 64 lower-case hex digits, shared/clients/keys.ts), or the key
 * in clear where the import allows that (docs/backoffice-dataset.md, "Keys"). Only the hash is ever stored.
 */
const secret = z.string().superRefine((key, ctx) => {
  const problem = keyProblem(key);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** An ERP client as an operator registers it: its keys (clear or hashed; only hashes are stored) and its farms. */
export const clientRegistrationSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{1,62}$/, 'lower-case letters, digits and hyphens'),
  name: z.string().min(1),
  email: z.email(),
  sidKey: secret,
  /**
   * The SID key being retired: it keeps working beside `sidKey` until an import without it, so the client can switch
   * to the new key at its own moment instead of at a cut-over (docs/operations.md, "Rotating keys").
   */
  previousSidKey: secret.optional(),
  apiKey: secret,
  /** Credentials stop working after this day (spec: expired credentials give 401). */
  expires: optionalDaySchema,
  /**
   * The client's API Management subscription (its identifier, as in `/subscriptions/<id>`); default: the client id.
   * Behind APIM the API key must belong to this subscription, so the two keys of a client only work together.
   */
  apimSubscriptionId: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,80}$/, 'an APIM subscription identifier')
    .optional(),
  farms: z.array(z.string().min(1)).default([]),
  /**
   * Where the gateway POSTs the client's job events, signed (docs/interface.md, "Webhooks"): https, or http to this
   * machine only (the local stack's receiver). Its signing secret is never part of the data: see webhook-secret.ts.
   */
  webhook: webhookUrlSchema.optional(),
});
export type ClientRegistration = z.infer<typeof clientRegistrationSchema>;
