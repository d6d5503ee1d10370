import { CORE_ERROR_CODES, ErrorCode } from '../domain/errors';
import { HTTP_STATUS as CORE_STATUS } from '../http/error-status';
import { KindEntry } from '../records/kind-entry';
import { RECORD_KINDS } from './record-kinds';

const KINDS: readonly KindEntry[] = RECORD_KINDS;

/** Each kind's codes as declared (`shared/<kind>/errors.ts`), in the registry's order. */
const KIND_ERRORS = KINDS.flatMap((k) => Object.entries(k.errorCodes ?? {}));

/**
 * Every error code the gateway answers with, and what it means: the core's (shared/domain/errors.ts), then each kind's
 * in the registry's order. The OpenAPI document lists and enumerates them in this order.
 */
export const ERROR_CODES: Readonly<Record<ErrorCode, string>> = Object.fromEntries<string>([
  ...Object.entries(CORE_ERROR_CODES),
  ...KIND_ERRORS.map(([code, e]) => [code, e.text] as const),
]);

/** The HTTP status of every code: the edge's for the core's, each kind's own for its codes. */
export const HTTP_STATUS: Readonly<Record<ErrorCode, number>> = Object.fromEntries<number>([
  ...Object.entries(CORE_STATUS),
  ...KIND_ERRORS.map(([code, e]) => [code, e.status] as const),
]);
