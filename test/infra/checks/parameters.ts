/** The parameter files of each environment (and azd's) against the parameters main.bicep declares. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Finding, Infra } from './model';

/** main.parameters.json (azd), main.dev.parameters.json, main.prod.parameters.json: one per environment at least. */
export const PARAMETER_FILES = {
  azd: 'main.parameters.json',
  dev: 'main.dev.parameters.json',
  prod: 'main.prod.parameters.json',
};

/** `${VAR}` or `${VAR=default}`: azd substitutes these from the environment. */
const AZD_SUBSTITUTION = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(?:=([^}]*))?\}$/;

/**
 * What azd makes of a substituted text for a parameter of each type (Azure/azure-dev, cli/azd/pkg/infra/provisioning/
 * bicep/bicep_provider.go, armParameterFileValue): a bool or an int parsed from it, and the template's default used when
 * it does not parse (an unset variable); a string as it is; an array or an object as text, which the deployment refuses.
 */
const AZD_PARSES: Record<string, (text: string) => boolean> = {
  string: () => true,
  bool: (t) => /^(1|t|T|TRUE|true|True|0|f|F|FALSE|false|False)$/.test(t),
  int: (t) => /^-?\d+$/.test(t),
};

export function checkParameterFiles(infra: Infra): Finding[] {
  const out: Finding[] = [];
  for (const required of Object.values(PARAMETER_FILES))
    if (!fs.existsSync(path.join(infra.dir, required)))
      out.push({ check: 'parameter-files', file: `infra/${required}`, message: 'missing' });
  for (const name of fs
    .readdirSync(infra.dir)
    .filter((n) => n.endsWith('.parameters.json'))
    .sort()) {
    const file = `infra/${name}`;
    const template = infra.files.get(path.resolve(infra.dir, `${name.split('.')[0]}.bicep`));
    if (!template) {
      out.push({ check: 'parameter-files', file, message: `no template ${name.split('.')[0]}.bicep for it` });
      continue;
    }
    let doc: { parameters?: Record<string, { value?: unknown; reference?: unknown }> };
    try {
      doc = JSON.parse(fs.readFileSync(path.join(infra.dir, name), 'utf8'));
    } catch (e) {
      out.push({ check: 'parameter-files', file, message: `not JSON: ${(e as Error).message}` });
      continue;
    }
    const given = doc.parameters ?? {};
    for (const [key, entry] of Object.entries(given)) {
      const param = template.params.get(key);
      if (!param) {
        out.push({
          check: 'parameter-files',
          file,
          message: `'${key}' is not a parameter of ${path.basename(template.file)}`,
        });
        continue;
      }
      const secure = param.decorators.includes('secure');
      if (entry.reference !== undefined) continue; // Key Vault reference: resolved at deployment.
      if (!('value' in entry)) {
        out.push({ check: 'parameter-files', file, message: `'${key}' has neither value nor reference` });
        continue;
      }
      const substitution = typeof entry.value === 'string' ? AZD_SUBSTITUTION.exec(entry.value) : null;
      if (secure && !substitution && !(typeof entry.value === 'string' && entry.value.startsWith('$(')))
        out.push({
          check: 'parameter-files',
          file,
          message: `'${key}' is @secure(): never a literal value in a parameter file`,
        });
      if (substitution) {
        if (name !== PARAMETER_FILES.azd)
          out.push({
            check: 'parameter-files',
            file,
            message: `'${key}': \${...} substitution works only in ${PARAMETER_FILES.azd} (azd)`,
          });
        const parses = AZD_PARSES[param.type];
        if (!parses)
          out.push({
            check: 'parameter-files',
            file,
            message: `'${key}' is ${param.type}; azd passes a substituted value as text, which only a string, bool or int parameter takes`,
          });
        const fallback = substitution[2];
        if (fallback !== undefined && parses && !parses(fallback))
          out.push({
            check: 'parameter-files',
            file,
            message: `'${key}' default '${fallback}' is not a ${param.type}`,
          });
        if (fallback !== undefined && param.allowed && !param.allowed.includes(fallback))
          out.push({
            check: 'parameter-files',
            file,
            message: `'${key}' default '${fallback}' is not one of ${JSON.stringify(param.allowed)}`,
          });
        continue;
      }
      const expected = { string: 'string', int: 'number', bool: 'boolean', object: 'object', array: 'object' }[
        param.type
      ];
      if (expected && typeof entry.value !== expected)
        out.push({
          check: 'parameter-files',
          file,
          message: `'${key}' should be ${param.type}, is ${JSON.stringify(entry.value)}`,
        });
      if (param.allowed && !param.allowed.some((a) => JSON.stringify(a) === JSON.stringify(entry.value)))
        out.push({
          check: 'parameter-files',
          file,
          message: `'${key}' = ${JSON.stringify(entry.value)} is not one of ${JSON.stringify(param.allowed)}`,
        });
    }
    for (const param of template.params.values())
      if (!param.hasDefault && !(param.name in given))
        out.push({ check: 'parameter-files', file, message: `required parameter '${param.name}' is missing` });
  }
  return out;
}
