import { HttpRequest } from '@azure/functions';
import { ResponseHeader } from './contract';
import { Reply } from './endpoint';
import { paginationHeaders } from './pagination';
import { PageInfo } from '../domain/pagination';

/**
 * An answer a client may keep: its validator (the ETag without quotes), for how long, and the answer when it is sent:
 * its JSON text and, for a page of a list, the list's size and the page.
 */
export interface CacheableAnswer {
  tag: string;
  maxAgeSeconds: number;
  body: () => { json: string; total?: number; page?: PageInfo };
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
 * as the RFC says for this header: `W/"x"` matches `"x"`) or is `*`, with the ETag and Cache-Control a 304 must carry;
 * the answer is not even worked out then. Otherwise 200 with the answer, and for a list its paging headers.
 */
export function cacheableReply(request: HttpRequest, answer: CacheableAnswer): Reply {
  const etag = `"${answer.tag}"`;
  const caching = { ETag: etag, 'Cache-Control': `private, max-age=${answer.maxAgeSeconds}` };
  if (ifNoneMatchHolds(request.headers.get('if-none-match'), etag)) {
    return { status: 304, empty: true, headers: caching };
  }
  const { json, total, page } = answer.body();
  const paging = total === undefined ? {} : paginationHeaders(request.url, total, page);
  return { status: 200, rawJson: json, headers: { ...caching, ...paging } };
}

/** Whether an If-None-Match header names this strong entity tag, or any (`*`). */
export function ifNoneMatchHolds(header: string | null, etag: string): boolean {
  if (header === null) return false;
  if (header.trim() === '*') return true;
  return (header.match(/(?:W\/)?"[^"]*"/g) ?? []).some((tag) => tag.replace(/^W\//, '') === etag);
}
