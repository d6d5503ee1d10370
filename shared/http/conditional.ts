import { HttpRequest } from '@azure/functions';
import { ResponseHeader } from './contract';
import { Reply } from './endpoint';

/** An answer a client may keep: its validator (the ETag without quotes), for how long, and the answer when sent. */
export interface CacheableAnswer {
  tag: string;
  maxAgeSeconds: number;
  render: () => unknown;
}

/** What a cacheable answer says of itself, as the OpenAPI document describes it. */
export const CACHE_HEADERS: Record<string, ResponseHeader> = {
  ETag: {
    type: 'string',
    description:
      'strong validator of this answer; it changes when an import changes the catalogue, and with the day for ' +
      'answers about today: send it back as If-None-Match to get 304 while it still holds',
  },
  'Cache-Control': {
    type: 'string',
    description: '`private, max-age=<seconds>`: how long the caller may use the answer without asking again',
  },
};

/**
 * RFC 9110's If-None-Match on a GET: 304 with no body when the header names the answer's entity tag (compared weakly,
 * as the RFC says for this header: `W/"x"` matches `"x"`) or is `*`; otherwise 200 with the answer. Both carry the
 * ETag, Cache-Control and the other headers of the answer, as a 304 must.
 */
export function cacheableReply(
  request: HttpRequest,
  answer: CacheableAnswer,
  headers: Record<string, string> = {},
): Reply {
  const etag = `"${answer.tag}"`;
  const all = { ETag: etag, 'Cache-Control': `private, max-age=${answer.maxAgeSeconds}`, ...headers };
  if (ifNoneMatchHolds(request.headers.get('if-none-match'), etag)) return { status: 304, empty: true, headers: all };
  return { status: 200, json: answer.render(), headers: all };
}

/** Whether an If-None-Match header names this strong entity tag, or any (`*`). */
export function ifNoneMatchHolds(header: string | null, etag: string): boolean {
  if (header === null) return false;
  if (header.trim() === '*') return true;
  return (header.match(/(?:W\/)?"[^"]*"/g) ?? []).some((tag) => tag.replace(/^W\//, '') === etag);
}
