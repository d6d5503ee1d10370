import { createHmac } from 'node:crypto';

/**
 * A client's webhook signing secret, derived from the gateway's signing key (WEBHOOK_SIGNING_KEY, a Key Vault secret
 * reference in Azure, as the SIEX credentials are) and the client id. No secret is stored anywhere, least of all in
 * clear in a table: the key lives in Key Vault, and operators read a client's secret with
 * `npm run admin -- webhook-secret <client id>` to hand it over, as they hand over the client's keys.
 */
export function webhookSecret(signingKey: string, clientId: string): string {
  return `whsec_${createHmac('sha256', signingKey).update(`siex-gateway webhook\n${clientId}`).digest('base64url')}`;
}
