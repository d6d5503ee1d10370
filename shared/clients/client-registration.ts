import { z } from 'zod';
import { optionalDaySchema } from '../domain/day-schema';

const secret = z.string().min(32, 'a key must be at least 32 characters');

/** An ERP client as an operator registers it: its two keys in clear (only their hashes are stored) and its farms. */
export const clientRegistrationSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{1,62}$/, 'lower-case letters, digits and hyphens'),
  name: z.string().min(1),
  email: z.email(),
  sidKey: secret,
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
  webhook: z
    .url({ protocol: /^https?$/ })
    .refine((u) => {
      const url = new URL(u);
      return url.protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
    }, 'an https URL (http only to localhost)')
    .optional(),
});
export type ClientRegistration = z.infer<typeof clientRegistrationSchema>;
