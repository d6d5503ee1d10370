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
