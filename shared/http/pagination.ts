import { ResponseHeader } from './contract';

/**
 * Pagination travels in headers so the body stays the plain array the spec defines:
 * `X-Total-Count` (matching records), and when paging `X-Page`, `X-Page-Size`, `X-Total-Pages` and an RFC 8288
 * `Link` header with first/prev/next/last relative links that keep every other query parameter.
 */
export const PAGINATION_HEADERS: Record<string, ResponseHeader> = {
  'X-Total-Count': { type: 'integer', description: 'number of records matching the filters' },
  'X-Page': { type: 'integer', description: 'the page returned (when paginating)' },
  'X-Page-Size': { type: 'integer', description: 'records per page (when paginating)' },
  'X-Total-Pages': { type: 'integer', description: 'number of pages (when paginating)' },
  Link: { type: 'string', description: 'RFC 8288 links rel="first", "prev", "next", "last" (when paginating)' },
};

export function paginationHeaders(
  url: string,
  total: number,
  page?: { number: number; size: number; pages: number },
): Record<string, string> {
  const headers: Record<string, string> = { 'X-Total-Count': String(total) };
  if (!page) return headers;
  headers['X-Page'] = String(page.number);
  headers['X-Page-Size'] = String(page.size);
  headers['X-Total-Pages'] = String(page.pages);
  const u = new URL(url);
  const link = (n: number, rel: string) => {
    u.searchParams.set('page', String(n));
    return `<${u.pathname}${u.search}>; rel="${rel}"`;
  };
  const last = Math.max(1, page.pages);
  const links = [link(1, 'first')];
  if (page.number > 1) links.push(link(Math.min(page.number - 1, last), 'prev'));
  if (page.number < page.pages) links.push(link(page.number + 1, 'next'));
  links.push(link(last, 'last'));
  headers.Link = links.join(', ');
  return headers;
}

/** A list's answer, whatever the record kind: the page's records as the plain array, the paging in headers. */
export function pageReply<R>(
  url: string,
  page: { records: R[]; total: number; page?: { number: number; size: number; pages: number } },
) {
  return { status: 200, json: page.records, headers: paginationHeaders(url, page.total, page.page) };
}
