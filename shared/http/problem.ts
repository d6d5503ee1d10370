import { HttpResponseInit } from '@azure/functions';
import { z } from 'zod';

/**
 * RFC 9457 problem details, the one error shape of every endpoint (and of the APIM policies). `errors` lists every
 * violation found, each with a stable UPPER_SNAKE code that clients can switch on.
 */
export const violationSchema = z
  .object({
    code: z.string().describe('stable UPPER_SNAKE error code'),
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

export type Violation = z.infer<typeof violationSchema>;
export type Problem = z.infer<typeof problemSchema>;

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** Thrown anywhere below a handler; the pipeline turns it into the problem response. */
export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly errors: Violation[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export function violation(code: string, path: string, message: string): Violation {
  return { code, path, message };
}

export function problemBody(status: number, detail: string, errors: Violation[]): Problem {
  return { type: `https://siex-gateway.dev/problems/${status}`, title: TITLES[status] ?? 'Error', status, detail, errors };
}

export function problemResponse(e: ProblemError): HttpResponseInit {
  return {
    status: e.status,
    headers: { 'Content-Type': 'application/problem+json', ...e.headers },
    body: JSON.stringify(problemBody(e.status, e.detail, e.errors)),
  };
}

/** Which status a batch of violations earns: the spec's Errors section ranks 404 over 422 over 400. */
export function statusFor(violations: Violation[], statusOf: (code: string) => number): number {
  let status = 400;
  for (const v of violations) {
    const s = statusOf(v.code);
    if (s === 404 || (s === 422 && status !== 404)) status = s;
  }
  return status;
}
