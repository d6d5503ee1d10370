import { HttpResponseInit } from '@azure/functions';
import { z } from 'zod';
import { DomainError, MAX_ERROR_CODE_LENGTH, Violation } from '../domain/errors';
import { statusOf } from './error-status';

/** At most this many violations are listed in one answer; `errorCount` then says how many there were. */
export const MAX_LISTED_ERRORS = 100;
/**
 * Longest `path` or `message` of a listed violation, in bytes of its JSON text (escapes counted): paths echo the
 * client's field names, which can be as long as the body, so an answer is never larger than MAX_PROBLEM_BYTES.
 */
export const MAX_FIELD_BYTES = 256;
/** Longest `detail` (the gateway's own sentence, which may quote a setting), in bytes of its JSON text. */
const MAX_DETAIL_BYTES = 512;
/** Room for `type`, `title`, `status`, `detail`, `errorCount` and the punctuation around them. */
const ENVELOPE_BYTES = 1024;
/** The largest problem details answer the gateway can give, whatever the request (docs/interface.md, "Errors"). */
export const MAX_PROBLEM_BYTES =
  ENVELOPE_BYTES +
  MAX_LISTED_ERRORS * ('{"code":"","path":"","message":""},'.length + MAX_ERROR_CODE_LENGTH + 2 * MAX_FIELD_BYTES);

/**
 * RFC 9457 problem details, the one error shape of every endpoint (and of the APIM policies). `errors` lists the
 * violations found (the first MAX_LISTED_ERRORS), each with a stable UPPER_SNAKE code that clients can switch on.
 */
const violationSchema = z
  .object({
    // The codes' enum is the app's whole table (the core's and every kind's), which the document sets
    // (shared/openapi/document.ts): the edge knows no kind.
    code: z.string().describe('stable UPPER_SNAKE error code'),
    path: z
      .string()
      .describe(
        `where the problem is: \`body.dose\`, \`query.year\`, \`header.Ocp-Apim-Sid-Key\`, or empty; cut to ${MAX_FIELD_BYTES} bytes`,
      ),
    message: z.string(),
  })
  .meta({ id: 'Violation' });

export const problemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    errors: z.array(violationSchema).max(MAX_LISTED_ERRORS).describe(`the first ${MAX_LISTED_ERRORS} violations`),
    errorCount: z
      .number()
      .int()
      .optional()
      .describe(`how many violations were found; present only when there were more than ${MAX_LISTED_ERRORS}`),
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

const ELLIPSIS = '…';
const jsonBytes = (s: string) => Buffer.byteLength(JSON.stringify(s), 'utf8') - 2;

/** `text`, or its longest start that fits `maxBytes` as JSON text with an ellipsis after it. */
export function clip(text: string, maxBytes = MAX_FIELD_BYTES): string {
  if (jsonBytes(text) <= maxBytes) return text;
  let used = jsonBytes(ELLIPSIS);
  let end = 0;
  for (const ch of text) {
    const size = jsonBytes(ch);
    if (used + size > maxBytes) break;
    used += size;
    end += ch.length;
  }
  return text.slice(0, end) + ELLIPSIS;
}

export function problemBody(status: number, detail: string, errors: readonly Violation[]): Problem {
  return {
    type: `https://siex-gateway.dev/problems/${status}`,
    title: TITLES[status] ?? 'Error',
    status,
    detail: clip(detail, MAX_DETAIL_BYTES),
    errors: errors
      .slice(0, MAX_LISTED_ERRORS)
      .map((v) => ({ code: v.code, path: clip(v.path), message: clip(v.message) })),
    ...(errors.length > MAX_LISTED_ERRORS ? { errorCount: errors.length } : {}),
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
