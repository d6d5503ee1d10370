import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../domain/pagination';

/**
 * An integer query parameter. The query string carries text; the contract, and so the OpenAPI document and every
 * client generated from it, says integer. Only plain digits are taken as a number: `1e3`, ` 7`, `0x10` or `2026.0`
 * are not what a client means by an integer, and are refused with `message` like any other wrong value.
 */
export function queryInteger(min: number, max: number, message: string) {
  return z.preprocess(
    (v) => (typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : v),
    z.number({ error: message }).int(message).min(min, message).max(max, message),
  );
}

/** `DD-MM-YYYY` (the date is checked as a real Madrid day where it is used). */
export const DAY_PATTERN = '^\\d{2}-\\d{2}-\\d{4}$';
/** `DD-MM-YYYY HH:mm:ss`. */
export const DATE_TIME_PATTERN = '^\\d{2}-\\d{2}-\\d{4} \\d{2}:\\d{2}:\\d{2}$';

/**
 * `page` and `page_size` of every list (shared/domain/pagination.ts has the pair rule): spread into a list's query
 * schema, so each list documents and validates them the same way.
 */
export const paginationQuery = {
  page: queryInteger(1, 9_999_999, 'a whole number from 1')
    .optional()
    .describe('page number from 1; only together with page_size'),
  page_size: queryInteger(1, MAX_PAGE_SIZE, `a whole number from 1 to ${MAX_PAGE_SIZE}`)
    .optional()
    .describe(`items per page, 1 to ${MAX_PAGE_SIZE}; only together with page`),
};

/**
 * The head of every record kind's list query: the farm, and the period on the day each record is listed by (`on`, in
 * the kind's words: "the day it was drawn up"), Madrid days, inclusive.
 */
export function listPeriod(on: string) {
  const day = () =>
    z.string().meta({ pattern: DAY_PATTERN }).optional().describe(`DD-MM-YYYY, Madrid day, inclusive: on ${on}`);
  return {
    agrifarmId: z.string().min(1).describe('farm URN from the farm lookup'),
    dateFrom: day(),
    dateTo: day(),
  };
}

/**
 * The filters every record kind's list takes beside its own (days, and the value its rows keep), and the pagination: spread
 * at the end of a list's query schema, so every kind's list filters by export state and crop location alike.
 */
export const recordListFilters = {
  exported: queryInteger(0, 1, '0 or 1')
    .optional()
    .describe('1: only records SIEX holds as they are (exported); 0: only those still to be sent'),
  exportable: queryInteger(0, 1, '0 or 1')
    .optional()
    .describe('1: only records an export would send now (`exportable`); 0: only those it would refuse'),
  idcp: z
    .string()
    .regex(/^[1-9]\d{0,9}$/, 'idcp from the identifier operation')
    .optional()
    .describe('only records that name this crop location'),
  ...paginationQuery,
};
