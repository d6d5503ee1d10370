import { HttpRequest } from '@azure/functions';
import { DomainError, Violation, violation } from '../domain/errors';
import { formatPath } from '../domain/validation';

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
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)"?/i;
const UTF8 = /^utf-?8$/i;

function unsupportedCharset(message: string): DomainError {
  return new DomainError('The body must be UTF-8.', [violation('UNSUPPORTED_CHARSET', 'header.Content-Type', message)]);
}

/**
 * The body as text. JSON is UTF-8 (RFC 8259): another declared charset is refused rather than read as UTF-8, and so
 * are bytes that are not UTF-8, which would otherwise be stored with replacement characters.
 */
function utf8Text(type: string, bytes: Buffer): string {
  const charset = CHARSET.exec(type)?.[1];
  if (charset !== undefined && !UTF8.test(charset)) {
    throw unsupportedCharset(`only charset=utf-8 is accepted, got "${charset}"`);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw unsupportedCharset('the body is not valid UTF-8');
  }
}

/**
 * The deepest nesting a JSON body may have. The deepest body the interface defines (a record's SIGPAC
 * enclosures) nests 5 levels; a body nested thousands deep would overflow the stack of whatever walks it recursively
 * (a parser, zod, the merge patch), so it is refused before anything reads it.
 */
const MAX_JSON_DEPTH = 64;

const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The nesting depth of JSON text, in one pass with no recursion: brackets and braces counted outside strings. The
 * text need not be valid JSON (JSON.parse judges that afterwards); only its depth is measured, and the scan stops as
 * soon as it passes `limit`.
 */
function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) depth--;
  }
  return false;
}

/**
 * A UTF-16 code unit of a surrogate pair with no partner. JSON text may spell one (`"\ud800"`), and JSON.parse keeps
 * it, but it is no Unicode character: issue 36 found them stored and carried into the SIEX document (`Observaciones`,
 * `IdEquipoAplicador`, `EmpresaSuministradora`), where one refused value fails a submission of up to 100 records. NUL
 * and U+2028 are characters, and keep being accepted.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Member names that are the object machinery's own: `__proto__` reaches an object's prototype when code copies or
 * merges members (a merge patch, a spread into a fresh object), `constructor` and `prototype` are the other two
 * handles prototype pollution goes through. No body of the interface has them; issue 36 found a merge patch
 * `{"__proto__": ...}` answered 200 and silently ignored, so they are refused wherever they appear.
 */
const RESERVED_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Only text with a `\u` escape can hold a lone surrogate (the bytes passed the strict UTF-8 decoder, which refuses
 * encoded surrogates) or spell a reserved name other than literally: a body with neither is not walked at all.
 */
const MAY_HOLD_UNSAFE = /\\u|__proto__|constructor|prototype/;

/** A lone surrogate as a path or message shows it: `\uD800`, since it cannot be shown as itself. */
const escaped = (unit: string) => `\\u${unit.charCodeAt(0).toString(16).toUpperCase()}`;

/** Where the text's first lone surrogate is, and which it is; null if it has none. */
function loneSurrogate(text: string): string | null {
  LONE_SURROGATE.lastIndex = 0;
  const found = LONE_SURROGATE.exec(text);
  return found && `a lone surrogate (${escaped(found[0])}) at character ${found.index + 1}: not a Unicode character`;
}

/**
 * Every lone surrogate (in a string or a member name) and reserved member name of a parsed body, at its path. The
 * body is at most MAX_JSON_DEPTH deep, so the walk's recursion is bounded; `path` is one stack, pushed and popped.
 */
function unsafeMembers(value: unknown, path: (string | number)[], out: Violation[]): Violation[] {
  if (typeof value === 'string') {
    const lone = loneSurrogate(value);
    if (lone) out.push(violation('LONE_SURROGATE', formatPath('body', path), lone));
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      unsafeMembers(value[i], path, out);
      path.pop();
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [name, member] of Object.entries(value)) {
      const lone = loneSurrogate(name);
      path.push(lone ? name.replace(LONE_SURROGATE, escaped) : name);
      if (RESERVED_NAMES.has(name)) {
        out.push(violation('RESERVED_MEMBER_NAME', formatPath('body', path), `"${name}" is not accepted as a name`));
      }
      if (lone) out.push(violation('LONE_SURROGATE', formatPath('body', path), `the member name holds ${lone}`));
      unsafeMembers(member, path, out);
      path.pop();
    }
  }
  return out;
}

/**
 * Parses a JSON body; the content type must say JSON in UTF-8, an empty body is reported as missing, one nested
 * deeper than MAX_JSON_DEPTH is refused before it is parsed, and one with lone surrogates or reserved member names
 * after, each listed at its path.
 */
export function parseJsonBody(request: HttpRequest, bytes: Buffer): unknown {
  if (bytes.length === 0) {
    throw new DomainError('The request needs a JSON body.', [violation('REQUIRED', 'body', 'a JSON body is required')]);
  }
  const type = (request.headers.get('content-type') ?? '').trim();
  if (!JSON_TYPE.test(type)) {
    throw new DomainError('The body must be JSON.', [
      violation('UNSUPPORTED_MEDIA_TYPE', 'header.Content-Type', `expected application/json, got "${type}"`),
    ]);
  }
  const text = utf8Text(type, bytes);
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
    throw new DomainError('The body is nested too deeply.', [
      violation('JSON_TOO_DEEP', 'body', `objects and arrays may nest at most ${MAX_JSON_DEPTH} levels deep`),
    ]);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new DomainError('The body is not valid JSON.', [violation('MALFORMED_JSON', 'body', (e as Error).message)]);
  }
  const unsafe = MAY_HOLD_UNSAFE.test(text) ? unsafeMembers(value, [], []) : [];
  if (unsafe.length > 0) throw new DomainError('The body holds text or member names that are not accepted.', unsafe);
  return value;
}
