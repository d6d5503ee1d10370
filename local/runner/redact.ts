/**
 * What the runner's logs may show of a request. Clients send keys in query strings (API Management's
 * `subscription-key`, the Functions host's `code`, a SAS `sig`) as well as in headers (`Ocp-Apim-Subscription-Key`,
 * `Ocp-Apim-Sid-Key`, `Authorization`), and a terminal or a CI log is no place for them: the value of any parameter
 * or header whose name looks like a credential is replaced. The rule errs on the side of hiding (an
 * `Idempotency-Key` is hidden too): the log is for seeing which request came, not for replaying it.
 */

export const REDACTED = '[redacted]';

const CREDENTIAL_WORD = /key|secret|token|passw|pwd|auth|credential|signature|cookie|session/i;
const CREDENTIAL_NAME = new Set(['code', 'sig']);

export function isCredentialName(name: string): boolean {
  return CREDENTIAL_NAME.has(name.toLowerCase()) || CREDENTIAL_WORD.test(name);
}

/** A query parameter's name as the app reads it (`+` a space, percent escapes decoded where they are valid). */
function decodedName(raw: string): string {
  const spaced = raw.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** The request target with the values of credential-like query parameters replaced; everything else as sent. */
export function redactUrl(target: string): string {
  const q = target.indexOf('?');
  if (q < 0) return target;
  const pairs = target
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      return eq >= 0 && isCredentialName(decodedName(name)) ? `${name}=${REDACTED}` : pair;
    });
  return `${target.slice(0, q)}?${pairs.join('&')}`;
}

/** Header lines (`name: value`) in the order given, with the values of credential-like headers replaced. */
export function redactedHeaderLines(headers: Record<string, string>): string[] {
  return Object.entries(headers).map(([name, value]) => `${name}: ${isCredentialName(name) ? REDACTED : value}`);
}

/**
 * Values shorter than this are not hidden wherever they appear: a short value would blank out ordinary words and
 * numbers of unrelated lines, and no key the gateway issues is that short.
 */
const MIN_SECRET_LENGTH = 8;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A word (no white space) with at least one percent escape in it. */
const ESCAPED_WORD = /[^\s%]*(?:%[0-9A-Fa-f]{2}[^\s%]*)+/g;

/**
 * Every run of percent escapes decoded as UTF-8 bytes, as a URL's reader decodes them; bytes that are not UTF-8 become
 * U+FFFD instead of failing the whole word, so a key escaped beside a stray `%E0` is still found. `+` stays a `+`:
 * keys may hold one.
 */
function percentDecoded(word: string): string {
  return word.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8'));
}

/**
 * The key values the runner knows, hidden wherever they appear in a line it logs: in a query parameter of any name
 * (`?sid=<key>`, `?x=<key>`), a path, an error message or a stack trace. Names alone cannot catch a key sent under
 * an innocent name, so the values are matched as sent and as the app reads them once percent escapes are decoded. Values come from the settings, from the
 * dataset the stack imported (its clients' SID and API keys) and from every credential header a request brought.
 */
export class Secrets {
  readonly #values = new Set<string>();
  #pattern: RegExp | undefined;

  add(value: string | undefined): void {
    const v = value?.trim();
    if (!v || v.length < MIN_SECRET_LENGTH) return;
    if (!this.#values.has(v)) {
      this.#values.add(v);
      this.#pattern = undefined;
    }
    // `Bearer <token>`, `SharedKey account:<signature>`: the part after the scheme travels on its own too.
    const space = v.lastIndexOf(' ');
    if (space > 0) this.add(v.slice(space + 1));
  }

  /** Every credential-like header's value (Ocp-Apim-Sid-Key, Ocp-Apim-Subscription-Key, Authorization...). */
  addHeaders(headers: Record<string, string>): void {
    for (const [name, value] of Object.entries(headers)) if (isCredentialName(name)) this.add(value);
  }

  /**
   * Credential-like settings (SIEX_PASSWORD...) and the credential parts of connection strings (`AccountKey=`,
   * `accesskey=`, `SharedAccessSignature=`), whatever setting holds them.
   */
  addSettings(env: NodeJS.ProcessEnv): void {
    for (const [name, value] of Object.entries(env)) {
      if (value === undefined) continue;
      if (isCredentialName(name)) this.add(value);
      for (const part of value.split(';')) {
        const eq = part.indexOf('=');
        if (eq > 0 && isCredentialName(part.slice(0, eq).trim())) this.add(part.slice(eq + 1));
      }
    }
  }

  /**
   * The line with every known value replaced by REDACTED; the longest first, so a key containing another goes whole.
   * A word with percent escapes (a URL, a path, a query parameter) is decoded first and judged as the app reads it:
   * matching only the value as sent and its one canonical encoding let `%64emo-sid-…` through (issue 36), and any
   * character may be escaped. Such a word is shown decoded (but its white space), with the key hidden; other words
   * stay as sent.
   */
  scrub(line: string): string {
    if (this.#values.size === 0) return line;
    const pattern = (this.#pattern ??= new RegExp(
      [...this.#values]
        .sort((a, b) => b.length - a.length)
        .map(escapeRegExp)
        .join('|'),
      'g',
    ));
    return line.replace(pattern, REDACTED).replace(ESCAPED_WORD, (word) => {
      const decoded = percentDecoded(word);
      const hidden = decoded.replace(pattern, REDACTED);
      // White space decoded would split the word into fields of the line: it stays escaped.
      return hidden === decoded ? word : hidden.replace(/\s/g, encodeURIComponent);
    });
  }
}

/**
 * The SID and API keys of a back-office dataset's clients (`clients[].sidKey`, `previousSidKey`, `apiKey`); nothing
 * else is read.
 */
export function datasetKeys(dataset: unknown): string[] {
  const clients = (dataset as { clients?: unknown } | null)?.clients;
  if (!Array.isArray(clients)) return [];
  return clients.flatMap((c: { sidKey?: unknown; previousSidKey?: unknown; apiKey?: unknown } | null) =>
    [c?.sidKey, c?.previousSidKey, c?.apiKey].filter((k): k is string => typeof k === 'string'),
  );
}
