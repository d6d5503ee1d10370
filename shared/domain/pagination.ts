import { DomainError, Violation, violation } from './errors';

/**
 * Paging of every list the gateway answers (the records of a farm, the catalogues): `page` (from 1) and `page_size`
 * (1 to MAX_PAGE_SIZE) together, or neither (every item). The values are the contracts' (shared/api/query-params.ts);
 * the pair is a rule a schema cannot state, checked here on the query as sent.
 */
export const MAX_PAGE_SIZE = 500;

export const PAGINATION_PAIR_MESSAGE = 'page and page_size must be provided together';

export interface PageRequest {
  number: number;
  size: number;
}

/** The page answered: its number and size, and how many pages the whole list makes. */
export interface PageInfo extends PageRequest {
  pages: number;
}

/**
 * The page asked for, or the violation of the pair rule: one of `page` and `page_size` alone, or a misspelt
 * `page-size` (which counts as missing, with the interface's message).
 */
export function pageRequest(
  raw: Record<string, string>,
  q: { page?: number; page_size?: number },
): { page?: PageRequest; violations: Violation[] } {
  const misspelt = Object.keys(raw).filter((k) => k !== 'page_size' && /^page[-_ ]?size$/i.test(k));
  if ((q.page === undefined) !== (q.page_size === undefined) || misspelt.length > 0) {
    const path = misspelt.length > 0 ? `query.${misspelt[0]}` : q.page === undefined ? 'query.page' : 'query.page_size';
    return { violations: [violation('PAGINATION_PAIR', path, PAGINATION_PAIR_MESSAGE)] };
  }
  return {
    page: q.page !== undefined && q.page_size !== undefined ? { number: q.page, size: q.page_size } : undefined,
    violations: [],
  };
}

/** The error of a query with these problems: the pair rule's own message when it is the only one broken. */
export function queryError(problems: Violation[]): DomainError {
  const pairOnly = problems.every((p) => p.code === 'PAGINATION_PAIR');
  return new DomainError(pairOnly ? PAGINATION_PAIR_MESSAGE : 'The query parameters are not valid.', problems);
}

/** The items of the page (all of them without one), how many there are in all, and the page answered. */
export function pageOf<T>(items: readonly T[], page?: PageRequest): { items: T[]; total: number; page?: PageInfo } {
  if (!page) return { items: [...items], total: items.length };
  return {
    items: items.slice((page.number - 1) * page.size, page.number * page.size),
    total: items.length,
    page: { ...page, pages: Math.ceil(items.length / page.size) },
  };
}
