import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { addressRefusal, AddressPolicy, hostOf, urlRefusal } from './webhook-address';
import { signatureHeader, SIGNATURE_HEADER } from './webhook-signature';
import { webhookSecret } from './webhook-secret';

/**
 * One try's outcome: answered 2xx (true), failed and worth trying again (why, for operators), or refused for good
 * because the URL or an address it resolves to may not be reached (`refused`: sending again cannot help).
 */
export type TryOutcome = true | string | { refused: string };

/** One event to one client: `generations` are its secrets that sign it (default [0], its first). */
export interface OneDelivery {
  url: string;
  clientId: string;
  eventId: string;
  body: string;
  generations?: readonly number[];
}

/** What the delivery function needs to deliver an event: one signed POST. */
export interface WebhookPort {
  deliver(delivery: OneDelivery, nowMs: number): Promise<TryOutcome>;
}

/** A receiver has this long to answer a delivery; a slower one is tried again later, as one that failed. */
export const DELIVERY_TIMEOUT_MS = 10_000;

interface Address {
  address: string;
  family: number;
}
/** The addresses checked for a delivery: at least one. */
type Addresses = [Address, ...Address[]];

/** Every address a host name resolves to (the default: the system resolver, as a connection would use it). */
export type Resolver = (host: string) => Promise<Address[]>;

const systemResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

export interface SenderOptions extends Partial<AddressPolicy> {
  /** How long a try may take, connection included: DELIVERY_TIMEOUT_MS by default. */
  timeoutMs?: number;
  /** The resolver (tests give one that answers what they choose). */
  resolve?: Resolver;
  /** The time-out's signal, given the time (tests give one they abort when they choose). */
  timeout?: (ms: number) => AbortSignal;
}

/**
 * The addresses a delivery may connect to: every address the host resolves to is judged, and one refusal refuses the
 * delivery (a name answering a public and a private address is not delivered to), so that the connection, which uses
 * these and no other lookup, reaches only checked addresses.
 */
async function checkedAddresses(
  url: URL,
  policy: AddressPolicy,
  resolve: Resolver,
): Promise<Addresses | { refused: string }> {
  const refusedUrl = urlRefusal(url, policy);
  if (refusedUrl) return { refused: refusedUrl };
  const host = hostOf(url);
  // An address in the URL is judged as it is: no resolver is asked about it.
  const family = isIP(host);
  const [first, ...rest] = family ? [{ address: host, family }] : await resolve(host);
  if (!first) return { refused: `${host} resolves to no address` };
  for (const { address } of [first, ...rest]) {
    const refused = addressRefusal(address, url.protocol, policy);
    if (refused) return { refused: host === address ? refused : `${host}: ${refused}` };
  }
  return [first, ...rest];
}

/** A socket lookup that answers the checked addresses, whatever name it is asked (the connection's host is that name). */
function pinned(addresses: Addresses): LookupFunction {
  return (_host, options, callback) => {
    if (options.all) (callback as (e: null, a: Address[]) => void)(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  };
}

/** One POST to a checked address: its status, the body read and dropped; redirects are answers, never followed. */
function post(
  url: URL,
  addresses: Addresses,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
): Promise<number> {
  const request = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        lookup: pinned(addresses),
        // A fresh connection per try: a pooled socket would skip the lookup and the check with it.
        agent: false,
        signal,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The work's answer, or the signal's reason should it abort first: a resolver that hangs is held to the time-out. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Why a POST failed, as the log says it: the abort's reason (TimeoutError) or the socket's error code. */
function failureOf(e: unknown, signal: AbortSignal): string {
  if (signal.aborted) return `not delivered: ${(signal.reason as Error | undefined)?.name ?? 'AbortError'}`;
  const code = (e as { code?: string }).code;
  return `not delivered: ${(e as Error).name}${code ? ` (${code})` : ''}`;
}

/**
 * Delivers events over HTTP, signed with each client's secret (webhook-secret.ts), to addresses judged at each try
 * (webhook-address.ts). Never throws: a receiver that fails, hangs or cannot be reached is a failed try, retried by
 * the delivery queue, and a URL that may not be reached is refused for good.
 */
export function createWebhookSender(signingKey: string, options: SenderOptions = {}): WebhookPort {
  const policy: AddressPolicy = { allowLoopbackHttp: options.allowLoopbackHttp ?? false };
  const resolve = options.resolve ?? systemResolver;
  const timeout = options.timeout ?? ((ms) => AbortSignal.timeout(ms));
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  return {
    async deliver({ url: text, clientId, eventId, body, generations = [0] }, nowMs) {
      const signal = timeout(timeoutMs);
      let url: URL;
      try {
        url = new URL(text);
      } catch {
        return { refused: 'not a URL' };
      }
      try {
        const addresses = await checkedAddresses(url, policy, (host) => untilAborted(resolve(host), signal));
        if ('refused' in addresses) return addresses;
        const status = await post(
          url,
          addresses,
          {
            'Content-Type': 'application/json',
            'User-Agent': 'siex-gateway-webhooks/1',
            'Siex-Gateway-Event-Id': eventId,
            [SIGNATURE_HEADER]: signatureHeader(
              generations.map((g) => webhookSecret(signingKey, clientId, g)),
              body,
              nowMs,
            ),
          },
          body,
          signal,
        );
        if (status >= 200 && status < 300) return true;
        return status >= 300 && status < 400
          ? `answered HTTP ${status} (redirects are not followed)`
          : `answered HTTP ${status}`;
      } catch (e) {
        return failureOf(e, signal);
      }
    },
  };
}
