import { createHmac } from 'node:crypto';

/**
 * A client's webhook signing secret, derived from the gateway's signing key (WEBHOOK_SIGNING_KEY, a Key Vault secret
 * reference in Azure, as the SIEX credentials are), the client id and the secret's generation, which a rotation
 * raises (webhook-subscription.ts). No secret is stored anywhere, least of all in clear in a table: the key lives in
 * Key Vault; a client is shown its secret once, when it sets its webhook or rotates the secret, and operators read
 * one with `npm run admin -- webhook-secret <client id> [--generation N]` to hand it over, as they hand over keys.
 * Generation 0 is derived as secrets were before rotation existed, so a client's first secret did not change.
 */
export function webhookSecret(signingKey: string, clientId: string, generation = 0): string {
  const label = `siex-gateway webhook\n${clientId}${generation === 0 ? '' : `\n${generation}`}`;
  return `whsec_${createHmac('sha256', signingKey).update(label).digest('base64url')}`;
}
