import { HttpResponseInit } from '@azure/functions';
import { z } from 'zod';
import { DomainError, ERROR_CODES, ErrorCode, Violation } from '../domain/errors';
import { statusOf } from './error-status';

/**
 * RFC 9457 problem details, the one error shape of every endpoint (and of the APIM policies). `errors` lists every
 * violation found, each with a stable UPPER_SNAKE code that clients can switch on.
 */
export const violationSchema = z
  .object({
    code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]).describe('stable UPPER_SNAKE error code'),
    path: z.string().describe('where the problem is: `body.dose`, `query.year`, `header.Ocp-Apim-Sid-Key`, or empty'),
    message: z.string(),
  })
  .meta({ id: 'Violation' });

export const problemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    errors: z.array(violationSchema),
  })
  .meta({ id: 'Problem' });

export type Problem = z.infer<typeof problemSchema>;

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export function problemBody(status: number, detail: string, errors: readonly Violation[]): Problem {
  return {
    type: `https://siex-gateway.dev/problems/${status}`,
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    errors: [...errors],
  };
}

/** The answer to a refused request: its status from the codes of its violations, and when to retry, if it may. */
export function problemResponse(e: DomainError): HttpResponseInit {
  const status = statusOf(e.violations);
  const headers: Record<string, string> = { 'Content-Type': 'application/problem+json' };
  if (e.retryAfterSeconds !== undefined) headers['Retry-After'] = String(e.retryAfterSeconds);
  return {
    status,
    headers,
    body: JSON.stringify(problemBody(status, e.detail, e.violations)),
  };
}
