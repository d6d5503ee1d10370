import { z } from 'zod';
import { ErrorCode } from '../domain/errors';

/**
 * What an endpoint accepts and answers, as data: the pipeline validates with it, the function file registers its
 * routes, and the OpenAPI document is generated from it. One source for all three.
 */
export interface Contract<Q extends z.ZodType = z.ZodType, B extends z.ZodType | undefined = z.ZodType | undefined> {
  operationId: string;
  method: 'GET' | 'POST';
  /** Every spelling the spec shows, without a leading slash (host.json routePrefix is ""). */
  routes: string[];
  summary: string;
  description: string;
  query: Q;
  body?: B;
  success: {
    status: number;
    description: string;
    schema: z.ZodType;
    headers?: Record<string, ResponseHeader>;
  };
  /** Error codes this endpoint may answer with, beyond the ones every endpoint shares (credentials, limits). */
  errors: ErrorCode[];
  /** Takes an `Idempotency-Key` header: a retry with the same key and body returns the first answer. */
  idempotent?: boolean;
  /** A worked example from the demo flow (shared/api/examples.ts): query values, request body, the answer. */
  example: { query: Record<string, string | number>; request?: unknown; response: unknown };
}

/** A header an answer carries, as the OpenAPI document describes it. */
export interface ResponseHeader {
  description: string;
  type: 'integer' | 'string';
}

/** Codes any authenticated endpoint may answer with. */
export const COMMON_ERRORS: ErrorCode[] = [
  'MISSING_CREDENTIALS',
  'INVALID_CREDENTIALS',
  'EXPIRED_CREDENTIALS',
  'RATE_LIMITED',
  'INTERNAL',
  'STORAGE_UNAVAILABLE',
];

/** Codes of endpoints that take a JSON body. */
export const BODY_ERRORS: ErrorCode[] = [
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'UNSUPPORTED_CHARSET',
  'MALFORMED_JSON',
  'REQUIRED',
  'INVALID_VALUE',
  'UNKNOWN_FIELD',
];
