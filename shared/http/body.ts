import { HttpRequest } from '@azure/functions';
import { DomainError, violation } from '../domain/errors';

/**
 * Reads the body as bytes and stops as soon as it passes the limit: the limit is measured on what arrives, not on a
 * Content-Length header that a client may omit or get wrong.
 */
export async function readBodyLimited(request: HttpRequest, maxBytes: number): Promise<Buffer> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return Buffer.alloc(0);
  const reader = (request.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

function tooLarge(maxBytes: number): DomainError {
  return new DomainError(`The request body is larger than ${maxBytes} bytes.`, [
    violation('PAYLOAD_TOO_LARGE', 'body', `at most ${maxBytes} bytes are accepted`),
  ]);
}

const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;.*)?$/i;

/** Parses a JSON body; the content type must say JSON, and an empty body is reported as missing. */
export function parseJsonBody(request: HttpRequest, bytes: Buffer): unknown {
  if (bytes.length === 0) {
    throw new DomainError('The request needs a JSON body.', [violation('REQUIRED', 'body', 'a JSON body is required')]);
  }
  const type = request.headers.get('content-type') ?? '';
  if (!JSON_TYPE.test(type.trim())) {
    throw new DomainError('The body must be JSON.', [
      violation('UNSUPPORTED_MEDIA_TYPE', 'header.Content-Type', `expected application/json, got "${type}"`),
    ]);
  }
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    throw new DomainError('The body is not valid JSON.', [violation('MALFORMED_JSON', 'body', (e as Error).message)]);
  }
}
