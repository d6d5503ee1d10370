import { HttpRequest } from '@azure/functions';
import { DomainError, violation } from '../domain/errors';

const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const KEY_RE = /^[\x21-\x7e]{1,200}$/;

/** The request's Idempotency-Key, or null; a malformed one is a 400 rather than silently ignored. */
export function idempotencyKey(request: HttpRequest): string | null {
  const key = request.headers.get(IDEMPOTENCY_HEADER);
  if (key === null) return null;
  if (!KEY_RE.test(key)) {
    throw new DomainError('The Idempotency-Key header is not valid.', [
      violation('INVALID_VALUE', `header.${IDEMPOTENCY_HEADER}`, '1 to 200 visible ASCII characters'),
    ]);
  }
  return key;
}
