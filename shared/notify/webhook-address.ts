import { BlockList, isIP } from 'node:net';
import { z } from 'zod';

/**
 * Where a webhook may be delivered: https to a public address, so that a client's URL cannot make the gateway POST
 * inside its own network (Azure's instance metadata, the storage account's private endpoint, a neighbour's service).
 * The address is judged after DNS, at each delivery, and the connection goes to the address judged
 * (webhook-sender.ts), so a name that resolves elsewhere between the check and the connection reaches nothing.
 * The one exception is the local stack's receiver: http to this machine, with AUTH_MODE=local only.
 */

/** Addresses that are not the public internet (IANA special-purpose registries, RFC 6890 and its updates). */
const NOT_PUBLIC: readonly (readonly [string, number, 'ipv4' | 'ipv6', string])[] = [
  ['0.0.0.0', 8, 'ipv4', 'unspecified'],
  ['10.0.0.0', 8, 'ipv4', 'private'],
  ['100.64.0.0', 10, 'ipv4', 'private (shared address space)'],
  ['127.0.0.0', 8, 'ipv4', 'loopback'],
  // 169.254.169.254, the cloud's instance metadata service, is in this block.
  ['169.254.0.0', 16, 'ipv4', 'link-local'],
  ['172.16.0.0', 12, 'ipv4', 'private'],
  ['192.0.0.0', 24, 'ipv4', 'reserved (IETF protocol assignments)'],
  ['192.0.2.0', 24, 'ipv4', 'reserved (documentation)'],
  ['192.168.0.0', 16, 'ipv4', 'private'],
  ['198.18.0.0', 15, 'ipv4', 'reserved (benchmarking)'],
  ['198.51.100.0', 24, 'ipv4', 'reserved (documentation)'],
  ['203.0.113.0', 24, 'ipv4', 'reserved (documentation)'],
  ['224.0.0.0', 4, 'ipv4', 'multicast'],
  ['240.0.0.0', 4, 'ipv4', 'reserved'],
  ['::', 128, 'ipv6', 'unspecified'],
  ['::1', 128, 'ipv6', 'loopback'],
  // IPv4-compatible (deprecated) and NAT64 forms carry an IPv4 address that may be any of the above.
  ['::', 96, 'ipv6', 'reserved (IPv4-compatible)'],
  ['64:ff9b::', 96, 'ipv6', 'reserved (NAT64)'],
  ['64:ff9b:1::', 48, 'ipv6', 'reserved (NAT64)'],
  ['100::', 64, 'ipv6', 'reserved (discard)'],
  ['2001:db8::', 32, 'ipv6', 'reserved (documentation)'],
  ['2002::', 16, 'ipv6', 'reserved (6to4)'],
  ['fc00::', 7, 'ipv6', 'private (unique local)'],
  ['fe80::', 10, 'ipv6', 'link-local'],
  ['fec0::', 10, 'ipv6', 'reserved (site-local)'],
  ['ff00::', 8, 'ipv6', 'multicast'],
];

/** One list per reason; Node's BlockList matches an IPv4-mapped IPv6 address (::ffff:a.b.c.d) by its IPv4 rules. */
const BLOCKS: readonly (readonly [string, BlockList])[] = (() => {
  const byReason = new Map<string, BlockList>();
  for (const [network, prefix, family, reason] of NOT_PUBLIC) {
    const list = byReason.get(reason) ?? new BlockList();
    list.addSubnet(network, prefix, family);
    byReason.set(reason, list);
  }
  return [...byReason];
})();

function familyOf(address: string): 'ipv4' | 'ipv6' | null {
  const v = isIP(address);
  return v === 4 ? 'ipv4' : v === 6 ? 'ipv6' : null;
}

/** Why an address is not public ('loopback', 'private', ...), or null for a public one. */
export function nonPublicReason(address: string): string | null {
  const family = familyOf(address);
  if (!family) return 'not an IP address';
  return BLOCKS.find(([, list]) => list.check(address, family))?.[0] ?? null;
}

/** What a delivery may reach: https to public addresses; with AUTH_MODE=local, http to loopback too. */
export interface AddressPolicy {
  allowLoopbackHttp: boolean;
}

/** The host of a URL as DNS or a socket takes it: an IPv6 literal without its brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Why a webhook URL cannot be delivered to before any address is known (scheme, credentials), or null. */
export function urlRefusal(url: URL, policy: AddressPolicy): string | null {
  if (url.username || url.password) return 'a webhook URL carries no credentials';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && policy.allowLoopbackHttp) return null;
  return policy.allowLoopbackHttp
    ? 'a webhook URL is https (http only to this machine)'
    : 'a webhook URL is https (http only to this machine, with AUTH_MODE=local)';
}

/**
 * Why one address a webhook's host resolved to must not be connected to, or null: every address must pass, or the
 * delivery is refused. Over http (AUTH_MODE=local) only loopback passes; over https only public addresses.
 */
export function addressRefusal(address: string, protocol: string, policy: AddressPolicy): string | null {
  const reason = nonPublicReason(address);
  if (protocol === 'http:') {
    return policy.allowLoopbackHttp && reason === 'loopback' ? null : `${address} is not this machine (http)`;
  }
  return reason === null ? null : `${address} is ${reason}`;
}

/**
 * A webhook URL as a client sets it (PUT /v1/webhooks) or its operator registers it: https, or http to this machine
 * only (the local stack's receiver; the sender also refuses it outside AUTH_MODE=local). An address written in the URL
 * is judged now; a name, at every delivery after DNS (webhook-sender.ts).
 */
// Each check stops the next: one URL, one violation, the first that applies.
export const webhookUrlSchema = z
  .url({ protocol: /^https?$/, abort: true })
  .refine(
    (u) => {
      const url = new URL(u);
      return url.protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
    },
    { message: 'an https URL (http only to localhost)', abort: true },
  )
  .refine((u) => {
    const url = new URL(u);
    const host = hostOf(url);
    return url.protocol !== 'https:' || !isIP(host) || nonPublicReason(host) === null;
  }, 'an https URL to a public address (not private, loopback or link-local)');
