import { HttpRequest } from '@azure/functions';
import { DateTime } from 'luxon';
import { dateTimeNow } from '../time/date-time';
import { AUTH_MODE_NOT_SET } from '../config/auth-settings';
import { ConfigError } from '../config/config-error';
import { Settings } from '../config/settings';
import { Client } from '../clients/client-store';
import { hasExpired } from '../clients/client-expiry';
import { keyMatches } from '../clients/keys';
import { DomainError, violation } from '../domain/errors';

const SID_HEADER = 'Ocp-Apim-Sid-Key';
const API_KEY_HEADER = 'Ocp-Apim-Subscription-Key';
/** Set by API Management from the subscription whose key it accepted, overwriting anything a client sends. */
const SUBSCRIPTION_ID_HEADER = 'X-Apim-Subscription-Id';
/**
 * Set by App Service authentication to the caller whose token it admitted (the `oid` claim) and the provider that
 * issued it; it drops whatever a client sends under these names, so they are present only when the platform set them.
 */
const PRINCIPAL_ID_HEADER = 'X-MS-CLIENT-PRINCIPAL-ID';
const PRINCIPAL_IDP_HEADER = 'X-MS-CLIENT-PRINCIPAL-IDP';

export type AuthSettings = Pick<Settings, 'AUTH_MODE' | 'APIM_PRINCIPAL_ID'>;
export type FindClient = (sidKey: string) => Promise<Client | null>;

/** The auth mode, which has no default: the app does not start without it (functions/index.ts), nor serve. */
export function authMode(settings: AuthSettings): 'local' | 'apim' {
  if (!settings.AUTH_MODE) throw new ConfigError(AUTH_MODE_NOT_SET);
  return settings.AUTH_MODE;
}

/**
 * Resolves the calling client from its SID key, and checks that the API key is the same client's: in `local` mode by
 * comparing it with the stored hash; behind API Management (`apim`), which checks the key and strips it, by the
 * subscription API Management says the key belongs to. API Management says so in a header anyone could write, so it
 * is believed only on a request App Service authentication admitted as API Management's identity; any other request
 * is refused before its headers are read. A valid key of one client with another's SID key is refused.
 */
export async function authenticate(
  request: HttpRequest,
  settings: AuthSettings,
  findClient: FindClient,
  now: () => DateTime = () => dateTimeNow(),
): Promise<Client> {
  const mode = authMode(settings);
  if (mode === 'apim' && !fromApiManagement(request, settings.APIM_PRINCIPAL_ID)) {
    throw new DomainError('The request did not come through the gateway.', [
      violation('INVALID_CREDENTIALS', 'header', 'call the gateway at its API Management address'),
    ]);
  }
  const sid = request.headers.get(SID_HEADER)?.trim();
  const apiKey = request.headers.get(API_KEY_HEADER)?.trim();
  const missing = [...(sid ? [] : [SID_HEADER]), ...(mode === 'local' && !apiKey ? [API_KEY_HEADER] : [])];
  if (missing.length > 0) {
    throw new DomainError(
      'Both Ocp-Apim-Sid-Key and Ocp-Apim-Subscription-Key headers are required.',
      missing.map((h) => violation('MISSING_CREDENTIALS', `header.${h}`, 'header missing')),
    );
  }
  const client = await findClient(sid!);
  const keyIsTheClients =
    mode === 'local'
      ? !!client && keyMatches(apiKey!, client.apiKeyHash)
      : request.headers.get(SUBSCRIPTION_ID_HEADER) === client?.apimSubscriptionId;
  if (!client || !keyIsTheClients) {
    throw new DomainError('The SID key or API key is not valid.', [
      violation('INVALID_CREDENTIALS', 'header', 'check the Ocp-Apim-Sid-Key and Ocp-Apim-Subscription-Key values'),
    ]);
  }
  if (hasExpired(client.expires, now)) {
    throw new DomainError('The credentials have expired; renew them through support.', [
      violation('EXPIRED_CREDENTIALS', 'header', `credentials expired after ${client.expires}`),
    ]);
  }
  return client;
}

/** Whether App Service authentication admitted this request with an Entra ID token of API Management's identity. */
export function fromApiManagement(request: HttpRequest, apimPrincipalId: string | undefined): boolean {
  const principal = request.headers.get(PRINCIPAL_ID_HEADER)?.trim().toLowerCase();
  return (
    !!apimPrincipalId &&
    request.headers.get(PRINCIPAL_IDP_HEADER)?.trim() === 'aad' &&
    principal === apimPrincipalId.toLowerCase()
  );
}
