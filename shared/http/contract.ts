import { z } from 'zod';
import { CoreErrorCode, ErrorCode } from '../domain/errors';
import { Route } from './routes';

/**
 * What an endpoint accepts and answers, as data: the pipeline validates with it, the function file registers its
 * routes, and the OpenAPI document is generated from it. One source for all three.
 */
export interface Contract<
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  P extends z.ZodType | undefined = z.ZodType | undefined,
> extends Route {
  summary: string;
  description: string;
  /** The path parameters of the routes, by name. */
  params?: P;
  query: Q;
  body?: B;
  /** Media types the body may be sent as (default `application/json`), as the OpenAPI document lists them. */
  bodyTypes?: string[];
  success: SuccessAnswer;
  /** Other successful answers, e.g. a deletion that needs SIEX answers 202 with a job instead of 204. */
  alsoSuccess?: SuccessAnswer[];
  /** Error codes this endpoint may answer with, beyond the ones every endpoint shares (credentials, limits). */
  errors: ErrorCode[];
  /** Takes an `Idempotency-Key` header: a retry with the same key and body returns the first answer. */
  idempotent?: boolean;
  /** Takes an `If-Match` header with the record's ETag: a stale one is 412 and changes nothing. */
  ifMatch?: boolean;
  /** Takes an `If-None-Match` header with the answer's ETag: 304 with no body while it still holds. */
  ifNoneMatch?: boolean;
  /** A worked example from the demo flow (shared/api/examples.ts): parameters, request body, the answer. */
  example: {
    params?: Record<string, string>;
    query: Record<string, string | number>;
    request?: unknown;
    response: unknown;
  };
}

/** A successful answer: its status, what it means, its body (none for 204) and headers. */
export interface SuccessAnswer {
  status: number;
  description: string;
  schema?: z.ZodType;
  headers?: Record<string, ResponseHeader>;
}

/** A header an answer carries, as the OpenAPI document describes it. */
export interface ResponseHeader {
  description: string;
  type: 'integer' | 'string';
}

/** Codes any authenticated endpoint may answer with. */
export const COMMON_ERRORS: CoreErrorCode[] = [
  'MISSING_CREDENTIALS',
  'INVALID_CREDENTIALS',
  'EXPIRED_CREDENTIALS',
  'RATE_LIMITED',
  'INTERNAL',
  'STORAGE_UNAVAILABLE',
  // Answered by API Management when the service takes longer than 30 s (infra/policies/global.xml).
  'GATEWAY_TIMEOUT',
];

/** Codes of endpoints that take a JSON body. */
export const BODY_ERRORS: CoreErrorCode[] = [
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'UNSUPPORTED_CHARSET',
  'MALFORMED_JSON',
  'JSON_TOO_DEEP',
  'LONE_SURROGATE',
  'RESERVED_MEMBER_NAME',
  'REQUIRED',
  'INVALID_VALUE',
  'UNKNOWN_FIELD',
];
