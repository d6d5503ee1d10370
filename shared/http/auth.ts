import { HttpRequest } from '@azure/functions';
import { DateTime } from 'luxon';
import { Settings } from '../config/settings';
import { Client } from '../clients/client-store';
import { keyMatches } from '../clients/keys';
import { ZONE } from '../domain/dates';
import { DomainError, violation } from '../domain/errors';

export const SID_HEADER = 'Ocp-Apim-Sid-Key';
export const API_KEY_HEADER = 'Ocp-Apim-Subscription-Key';
/** Set by API Management from the subscription whose key it accepted, overwriting anything a client sends. */
export const SUBSCRIPTION_ID_HEADER = 'X-Apim-Subscription-Id';

export type FindClient = (sidKey: string) => Promise<Client | null>;

/**
 * Resolves the calling client from its SID key, and checks that the API key is the same client's: in `local` mode by
 * comparing it with the stored hash; behind API Management (`apim`), which checks the key and strips it, by the
 * subscription API Management says the key belongs to. A valid key of one client with another's SID key is refused.
 */
export async function authenticate(
  request: HttpRequest,
  mode: Settings['AUTH_MODE'],
  findClient: FindClient,
  now: DateTime = DateTime.now(),
): Promise<Client> {
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
  if (client.expires && now.setZone(ZONE).toISODate()! > client.expires) {
    throw new DomainError('The credentials have expired; renew them through support.', [
      violation('EXPIRED_CREDENTIALS', 'header', `credentials expired after ${client.expires}`),
    ]);
  }
  return client;
}
