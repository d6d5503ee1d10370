import { literalValue, NOT_LITERAL } from '../bicep';
import { Finding, Infra, rel } from './model';

/**
 * Secret-looking: a name whose words include key, secret, password, certificate/cert, or the pair connection
 * string, unless it names or locates the secret rather than holding it (ends with Name, Names, Id, Uri, Url, Type).
 */
function isSecretLookingName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .map((w) => w.toLowerCase())
    .filter(Boolean);
  if (['name', 'names', 'id', 'uri', 'url', 'type'].includes(words[words.length - 1] ?? '')) return false;
  const joined = words.join(' ');
  return (
    words.some((w) =>
      ['key', 'keys', 'secret', 'secrets', 'password', 'passwd', 'certificate', 'cert', 'pfx'].includes(w),
    ) ||
    joined.includes('connection string') ||
    words.includes('connectionstring')
  );
}

/** Secret-looking parameters are @secure(); no output carries a secret (by name or by a list*() call). */
export function checkSecrets(infra: Infra): Finding[] {
  const out: Finding[] = [];
  for (const f of infra.files.values()) {
    const file = rel(infra, f.file);
    for (const p of f.params.values()) {
      if (isSecretLookingName(p.name) && !p.decorators.includes('secure'))
        out.push({ check: 'secrets', file, message: `parameter '${p.name}' looks secret: mark it @secure()` });
      if (
        p.decorators.includes('secure') &&
        p.defaultValue &&
        literalValue(p.defaultValue) !== NOT_LITERAL &&
        literalValue(p.defaultValue) !== ''
      )
        out.push({ check: 'secrets', file, message: `@secure() parameter '${p.name}' has a literal default` });
    }
    for (const o of f.outputs.values()) {
      if (o.decorators.includes('secure')) continue;
      if (isSecretLookingName(o.name))
        out.push({ check: 'secrets', file, message: `output '${o.name}' looks secret: do not output secrets` });
      // listKeys(), listSecrets(), x.listKeys(), ...: the list* functions return secrets.
      const listCalls = o.value
        .descendantsOfType('call_expression')
        .map((c) => c?.childForFieldName('function')?.text ?? '')
        .filter((name) => /^list/i.test(name.split('.').pop() ?? ''));
      if (listCalls.length > 0)
        out.push({ check: 'secrets', file, message: `output '${o.name}' calls ${listCalls[0]}()` });
    }
  }
  return out;
}
