/**
 * Offline checks of infra/ (the Bicep CLI, az and Functions Core Tools cannot be installed here). Every check takes
 * the directories it reads, so the same functions run on the real infra/ (infra.test.ts) and on copies broken on
 * purpose (checks-bite.test.ts). A check returns findings; none means it passed.
 *
 * What a check cannot see, a deployment will: the list of such things is in README.md ("After the first deployment: what to watch").
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Node } from 'web-tree-sitter';
import {
  BicepFile,
  bicepFilesUnder,
  callsTo,
  getProperty,
  literalValue,
  NOT_LITERAL,
  objectProperties,
  parseBicepFile,
  stringValue,
  where,
} from './bicep';
import { allElements, child, deepText, parseXml, XmlElement, xmlWellFormedError } from './xml';

export interface Finding {
  check: string;
  file: string;
  message: string;
}

export function formatFinding(f: Finding): string {
  return `[${f.check}] ${f.file}: ${f.message}`;
}

/** Settings that may be absent from the Bicep, or present without being in the schema; see settings-allowlist.json. */
export interface SettingsAllowlist {
  /** In the schema, optional, read only on a developer machine: not set by the Bicep. */
  localOnly: Record<string, string>;
  /** Not in the schema: read by the Functions host, set by the Bicep. */
  hostOwned: Record<string, string>;
  /** Not in the schema: read by the Functions host when run locally, listed in local.settings.sample.json. */
  sampleHostOwned: Record<string, string>;
}

/** The part of a zod schema the checks use (kept structural so the checks do not depend on zod's types). */
export interface SettingSchema {
  safeParse(value: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } };
}

export interface CheckContext {
  /** The infra directory (infra/ or a broken copy). */
  infraDir: string;
  /** local.settings.sample.json. */
  sampleSettingsFile: string;
  /** settingsSchema from shared/config/settings.ts and its shape. */
  settings: { schema: SettingSchema; shape: Record<string, SettingSchema> };
  allowlist: SettingsAllowlist;
  /** The error codes (shared/domain/errors.ts) with their status (shared/http/error-status.ts): code to [status, meaning]. */
  errorCodes: Record<string, readonly [number, string]>;
  /** `Provider/type@version` strings checked against the documentation (verified-resource-types.json). */
  verifiedResourceTypes: string[];
  /** azure.yaml (azd). */
  azureYamlFile: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Contract constants: the values docs/architecture.md, "Identity and access" and the interface specification fix.

export const SID_HEADER = 'Ocp-Apim-Sid-Key';
export const SUBSCRIPTION_KEY_HEADER = 'Ocp-Apim-Subscription-Key';
export const SUBSCRIPTION_KEY_QUERY = 'subscription-key';
/** The header API Management sets to the caller's subscription id; always overwritten, so never forged. */
export const IDENTITY_HEADER = 'X-Apim-Subscription-Id';
/** The header that carries the Functions host key to the backend. */
export const FUNCTION_KEY_HEADER = 'x-functions-key';
export const FUNCTION_KEY_NAMED_VALUE = 'function-host-key';
export const RATE_LIMIT = { calls: '100', renewalPeriod: '60' };
export const MAX_BODY_BYTES = 1048576;
export const PRODUCT_PARAM = 'apiServiceSiexProduct';
export const PRODUCTS = { dev: 'api-service-siex-dev', prod: 'api-service-siex' } as const;
export const EXPORT_QUEUES = ['export-jobs', 'export-jobs-poison'];
export const PROBLEM_TYPE_PREFIX = 'https://siex-gateway.dev/problems/';

/** App settings Flex Consumption rejects or ignores (functions-app-settings#flex-consumption-plan-deprecations). */
export const FLEX_DEPRECATED_SETTINGS = [
  'FUNCTIONS_WORKER_RUNTIME',
  'FUNCTIONS_EXTENSION_VERSION',
  'FUNCTIONS_WORKER_RUNTIME_VERSION',
  'WEBSITE_NODE_DEFAULT_VERSION',
  'WEBSITE_RUN_FROM_PACKAGE',
  'WEBSITE_CONTENTSHARE',
  'WEBSITE_CONTENTAZUREFILECONNECTIONSTRING',
  'WEBSITE_CONTENTOVERVNET',
  'WEBSITE_MAX_DYNAMIC_APPLICATION_SCALE_OUT',
  'WEBSITE_USE_PLACEHOLDER_DOTNETISOLATED',
  'WEBSITE_TIME_ZONE',
  'SCM_DO_BUILD_DURING_DEPLOYMENT',
  'ENABLE_ORYX_BUILD',
  'AzureWebJobsStorage',
];

/** Bicep's compile-time limits on loaded files, in characters. */
const LOAD_LIMITS: Record<string, number> = {
  loadTextContent: 131072,
  loadJsonContent: 1048576,
  loadYamlContent: 1048576,
  loadFileAsBase64: 96 * 1024,
};

/** Built-in role definition ids the checks look for (checked against the Azure RBAC built-in roles list). */
export const ROLE_IDS = {
  storageBlobDataOwner: 'b7e6dc6d-f1e8-4753-8033-0f276bb0955b',
  storageQueueDataContributor: '974c5e8b-45b9-4653-ba55-5f855dd0fb88',
  storageTableDataContributor: '0a9a7e1f-b9d0-4cc4-a60d-0319b160aaa3',
  keyVaultSecretsUser: '4633458b-17de-408a-b874-0445c86b69e6',
};

// ---------------------------------------------------------------------------------------------------------------
// Loading.

export interface Infra {
  dir: string;
  files: Map<string, BicepFile>;
  main: BicepFile | undefined;
}

export async function loadInfra(infraDir: string): Promise<Infra> {
  const files = new Map<string, BicepFile>();
  for (const f of bicepFilesUnder(infraDir)) files.set(path.resolve(f), await parseBicepFile(f));
  return { dir: infraDir, files, main: files.get(path.resolve(infraDir, 'main.bicep')) };
}

function rel(infra: { dir: string }, file: string): string {
  return path.join('infra', path.relative(infra.dir, file)).split(path.sep).join('/');
}

function moduleTarget(infra: Infra, from: BicepFile, source: string): BicepFile | undefined {
  return infra.files.get(path.resolve(path.dirname(from.file), source));
}

/** Resources of a type (without version), across all files. */
function resourcesOfType(infra: Infra, type: string): { file: BicepFile; resource: BicepFile['resources'][number] }[] {
  const out: { file: BicepFile; resource: BicepFile['resources'][number] }[] = [];
  for (const file of infra.files.values())
    for (const resource of file.resources)
      if (resource.typeAndVersion.split('@')[0].toLowerCase() === type.toLowerCase()) out.push({ file, resource });
  return out;
}

/** The file a `loadTextContent('...')` in a resource body points at, resolved. */
function loadedFile(file: BicepFile, body: Node | undefined): string | undefined {
  if (!body) return undefined;
  const call = callsTo(body, ['loadTextContent'])[0];
  const arg = call ? stringValue(call.args[0]) : undefined;
  return arg === undefined ? undefined : path.resolve(path.dirname(file.file), arg);
}

// ---------------------------------------------------------------------------------------------------------------
// 1. Syntax.

/** Every .bicep file parses with tree-sitter-bicep without ERROR or MISSING nodes; main.bicep exists. */
export function checkBicepSyntax(infra: Infra): Finding[] {
  const out: Finding[] = [];
  if (!infra.main) out.push({ check: 'syntax', file: 'infra/main.bicep', message: 'missing' });
  for (const f of infra.files.values())
    for (const e of f.syntaxErrors)
      out.push({ check: 'syntax', file: rel(infra, f.file), message: `parse error at ${e}` });
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// 2. Loaded files.

/** load*Content/loadFileAsBase64 arguments are literal paths to existing files within Bicep's size limits. */
export function checkLoadedFiles(infra: Infra): Finding[] {
  const out: Finding[] = [];
  for (const f of infra.files.values()) {
    for (const call of callsTo(f.root, Object.keys(LOAD_LIMITS))) {
      const file = rel(infra, f.file);
      const arg = stringValue(call.args[0]);
      if (arg === undefined) {
        out.push({ check: 'loaded-files', file, message: `${call.name} at ${where(call.node)} needs a literal path` });
        continue;
      }
      const target = path.resolve(path.dirname(f.file), arg);
      if (!fs.existsSync(target) || !fs.statSync(target).isFile()) {
        out.push({
          check: 'loaded-files',
          file,
          message: `${call.name}('${arg}') at ${where(call.node)}: no such file`,
        });
        continue;
      }
      const size = fs.readFileSync(target, 'utf8').length;
      if (size > LOAD_LIMITS[call.name])
        out.push({
          check: 'loaded-files',
          file,
          message: `${call.name}('${arg}'): ${size} characters, over Bicep's limit of ${LOAD_LIMITS[call.name]}`,
        });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// 3. Modules: paths, parameters, outputs.

/** Module paths are local files that exist; params passed match the module's; referenced outputs exist. */
export function checkModules(infra: Infra): Finding[] {
  const out: Finding[] = [];
  for (const f of infra.files.values()) {
    const file = rel(infra, f.file);
    for (const m of f.modules) {
      if (/^(br|ts)[:/]/.test(m.source)) {
        out.push({
          check: 'modules',
          file,
          message: `module ${m.symbol}: registry module '${m.source}' cannot be restored offline; use infra/modules/`,
        });
        continue;
      }
      const target = moduleTarget(infra, f, m.source);
      if (!target) {
        out.push({ check: 'modules', file, message: `module ${m.symbol}: '${m.source}' does not exist` });
        continue;
      }
      const params = getProperty(m.body, 'params');
      const passed = objectProperties(params).map((p) => p.key);
      if (params && params.type !== 'object')
        out.push({ check: 'modules', file, message: `module ${m.symbol}: params must be an object literal` });
      for (const name of passed)
        if (!target.params.has(name))
          out.push({
            check: 'modules',
            file,
            message: `module ${m.symbol} passes '${name}', which ${m.source} does not declare`,
          });
      for (const p of target.params.values())
        if (!p.hasDefault && !passed.includes(p.name))
          out.push({
            check: 'modules',
            file,
            message: `module ${m.symbol} does not pass required parameter '${p.name}' of ${m.source}`,
          });
      if (!getProperty(m.body, 'name') && f === infra.main)
        out.push({ check: 'modules', file, message: `module ${m.symbol}: give the deployment a name` });
    }
    // <module>.outputs.<name> must be an output of that module.
    const bySymbol = new Map(f.modules.map((m) => [m.symbol, moduleTarget(infra, f, m.source)]));
    for (const expr of f.root.descendantsOfType('member_expression')) {
      if (!expr) continue;
      const [object, prop] = expr.namedChildren;
      if (object?.type !== 'member_expression') continue;
      const [symbol, outputsWord] = object.namedChildren;
      if (symbol?.type !== 'identifier' || outputsWord?.text !== 'outputs' || !bySymbol.has(symbol.text)) continue;
      const target = bySymbol.get(symbol.text);
      if (target && !target.outputs.has(prop.text))
        out.push({
          check: 'modules',
          file,
          message: `${symbol.text}.outputs.${prop.text} at ${where(expr)}: no such output`,
        });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// 4. Symbols: every identifier used is declared (a typo would only show at deployment).

const BUILTIN_NAMESPACES = new Set(['az', 'sys']);

export function checkSymbols(infra: Infra): Finding[] {
  const out: Finding[] = [];
  for (const f of infra.files.values()) {
    const declared = new Set<string>([
      ...f.params.keys(),
      ...f.vars.keys(),
      ...f.outputs.keys(),
      ...f.resources.map((r) => r.symbol),
      ...f.modules.map((m) => m.symbol),
      ...BUILTIN_NAMESPACES,
    ]);
    // Loop and lambda variables: scoped in Bicep, accepted file-wide here (the check is for typos, not scoping).
    for (const loop of f.root.descendantsOfType(['for_statement', 'loop_variable', 'loop_enumerator'])) {
      if (!loop) continue;
      if (loop.type === 'for_statement') {
        const first = loop.namedChildren[0];
        if (first?.type === 'identifier') declared.add(first.text);
      } else declared.add(loop.text);
    }
    for (const lambda of f.root.descendantsOfType('lambda_expression')) {
      const params = lambda?.namedChildren[0];
      for (const id of params ? [params, ...params.descendantsOfType('identifier')] : [])
        if (id?.type === 'identifier') declared.add(id.text);
    }
    for (const id of f.root.descendantsOfType('identifier')) {
      if (!id || declared.has(id.text) || !isReference(id)) continue;
      out.push({ check: 'symbols', file: rel(infra, f.file), message: `'${id.text}' at ${where(id)} is not declared` });
    }
  }
  return out;
}

/** Whether an identifier node is a use of a symbol (not a declaration name, property key, function or type name). */
function isReference(id: Node): boolean {
  const parent = id.parent;
  if (!parent) return false;
  const declarations = [
    'parameter_declaration',
    'variable_declaration',
    'output_declaration',
    'resource_declaration',
    'module_declaration',
    'type_declaration',
    'user_defined_function',
    'metadata_declaration',
    'test_block',
    'assert_statement',
    'parameter',
  ];
  if (declarations.includes(parent.type) && parent.namedChildren[0]?.equals(id)) return false;
  if (parent.type === 'object_property' && parent.namedChildren[0]?.equals(id)) return false;
  if (parent.type === 'call_expression' && parent.childForFieldName('function')?.equals(id)) return false;
  if (parent.type === 'type' || parent.type.endsWith('_type')) return false;
  if (parent.type === 'import_functionality' || parent.type === 'import_statement') return false;
  return true;
}

// ---------------------------------------------------------------------------------------------------------------
// 5. Resource types and API versions.

/** Every `type@version` is one checked against the documentation (add new ones to verified-resource-types.json). */
export function checkResourceTypes(infra: Infra, verified: string[]): Finding[] {
  const known = new Set(verified.map((v) => v.toLowerCase()));
  const out: Finding[] = [];
  for (const f of infra.files.values())
    for (const r of f.resources) {
      if (!/^[A-Za-z]+\.[A-Za-z]+\/[A-Za-z/]+@\d{4}-\d{2}-\d{2}(-preview)?$/.test(r.typeAndVersion))
        out.push({
          check: 'resource-types',
          file: rel(infra, f.file),
          message: `resource ${r.symbol}: '${r.typeAndVersion}' is not Provider/type@yyyy-mm-dd`,
        });
      else if (!known.has(r.typeAndVersion.toLowerCase()))
        out.push({
          check: 'resource-types',
          file: rel(infra, f.file),
          message: `resource ${r.symbol}: '${r.typeAndVersion}' has not been checked against the documentation (test/infra/verified-resource-types.json)`,
        });
    }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// 6. Parameter files.

/** main.parameters.json (azd), main.dev.parameters.json, main.prod.parameters.json: one per environment at least. */
export const PARAMETER_FILES = {
  azd: 'main.parameters.json',
  dev: 'main.dev.parameters.json',
  prod: 'main.prod.parameters.json',
};

/** `${VAR}` or `${VAR=default}`: azd substitutes these from the environment. */
const AZD_SUBSTITUTION = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(?:=([^}]*))?\}$/;

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
        if (param.type !== 'string')
          out.push({
            check: 'parameter-files',
            file,
            message: `'${key}' is ${param.type}; azd substitutes strings only`,
          });
        const fallback = substitution[2];
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

// ---------------------------------------------------------------------------------------------------------------
// 7. Secrets.

/**
 * Secret-looking: a name whose words include key, secret, password, certificate/cert, or the pair connection
 * string, unless it names or locates the secret rather than holding it (ends with Name, Names, Id, Uri, Url, Type).
 */
export function isSecretLookingName(name: string): boolean {
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

// ---------------------------------------------------------------------------------------------------------------
// 8. App settings against shared/config/settings.ts and local.settings.sample.json.

/** The parameter of the function app module that carries the settings the code reads. */
export const APP_SETTINGS_PARAM = 'appSettings';
/** The variable of the function app module that carries the settings the Functions host reads. */
export const HOST_SETTINGS_VAR = 'hostAppSettings';

export interface AppSettingsFound {
  /** Setting name to its literal value (NOT_LITERAL when computed). */
  settings: Map<string, unknown>;
  findings: Finding[];
}

/**
 * The app settings the templates set: the keys of the `appSettings` object literal passed to the function app
 * module (the module with a Microsoft.Web/sites resource and an `appSettings` parameter) plus the keys of that
 * module's `hostAppSettings` variable. Both must be object literals, so the names can be read without deploying.
 */
export function findAppSettings(infra: Infra): AppSettingsFound {
  const settings = new Map<string, unknown>();
  const findings: Finding[] = [];
  const functionModules = [...infra.files.values()].filter(
    (f) =>
      f.params.has(APP_SETTINGS_PARAM) &&
      f.resources.some((r) => r.typeAndVersion.toLowerCase().startsWith('microsoft.web/sites@') && !r.existing),
  );
  if (functionModules.length !== 1) {
    findings.push({
      check: 'app-settings',
      file: 'infra/modules',
      message: `expected one function app module (a Microsoft.Web/sites resource and an '${APP_SETTINGS_PARAM}' parameter), found ${functionModules.length}`,
    });
    return { settings, findings };
  }
  const fnModule = functionModules[0];
  const hostVar = fnModule.vars.get(HOST_SETTINGS_VAR);
  if (!hostVar || hostVar.type !== 'object')
    findings.push({
      check: 'app-settings',
      file: rel(infra, fnModule.file),
      message: `'${HOST_SETTINGS_VAR}' must be an object literal variable`,
    });
  for (const p of objectProperties(hostVar)) settings.set(p.key, literalValue(p.value));
  const site = fnModule.resources.find(
    (r) => r.typeAndVersion.toLowerCase().startsWith('microsoft.web/sites@') && !r.existing,
  );
  const siteSettings = getProperty(site?.body, 'properties', 'siteConfig', 'appSettings');
  const siteText = siteSettings?.text ?? '';
  if (
    !new RegExp(`\\b${APP_SETTINGS_PARAM}\\b`).test(siteText) ||
    !new RegExp(`\\b${HOST_SETTINGS_VAR}\\b`).test(siteText)
  )
    findings.push({
      check: 'app-settings',
      file: rel(infra, fnModule.file),
      message: `siteConfig.appSettings must be built from '${APP_SETTINGS_PARAM}' and '${HOST_SETTINGS_VAR}'`,
    });
  let callers = 0;
  for (const f of infra.files.values())
    for (const m of f.modules) {
      if (moduleTarget(infra, f, m.source) !== fnModule) continue;
      callers++;
      const given = getProperty(m.body, 'params', APP_SETTINGS_PARAM);
      if (!given || given.type !== 'object') {
        findings.push({
          check: 'app-settings',
          file: rel(infra, f.file),
          message: `module ${m.symbol}: '${APP_SETTINGS_PARAM}' must be an object literal`,
        });
        continue;
      }
      for (const p of objectProperties(given)) {
        if (settings.has(p.key))
          findings.push({
            check: 'app-settings',
            file: rel(infra, f.file),
            message: `app setting '${p.key}' is set twice`,
          });
        settings.set(p.key, literalValue(p.value));
      }
    }
  if (callers === 0)
    findings.push({
      check: 'app-settings',
      file: 'infra/main.bicep',
      message: 'the function app module is never used',
    });
  return { settings, findings };
}

export function checkAppSettings(
  infra: Infra,
  ctx: Pick<CheckContext, 'sampleSettingsFile' | 'settings' | 'allowlist'>,
): Finding[] {
  const { settings: bicep, findings: out } = findAppSettings(infra);
  const schemaNames = Object.keys(ctx.settings.shape);
  const { localOnly, hostOwned, sampleHostOwned } = ctx.allowlist;
  const at = 'infra (function app settings)';

  // The allow-list itself: small, explicit and true.
  for (const name of Object.keys(localOnly)) {
    if (!schemaNames.includes(name))
      out.push({
        check: 'app-settings',
        file: 'test/infra/settings-allowlist.json',
        message: `localOnly '${name}' is not in the schema`,
      });
    else if (!ctx.settings.shape[name].safeParse(undefined).success)
      out.push({
        check: 'app-settings',
        file: 'test/infra/settings-allowlist.json',
        message: `localOnly '${name}' is required by the schema, so Azure must set it`,
      });
    if (bicep.has(name))
      out.push({
        check: 'app-settings',
        file: at,
        message: `'${name}' is local-only (allow-list) but the templates set it`,
      });
  }
  for (const name of [...Object.keys(hostOwned), ...Object.keys(sampleHostOwned)])
    if (schemaNames.includes(name))
      out.push({
        check: 'app-settings',
        file: 'test/infra/settings-allowlist.json',
        message: `'${name}' is in the schema: it is not host-owned`,
      });

  // Schema → templates, templates → schema.
  for (const name of schemaNames)
    if (!bicep.has(name) && !(name in localOnly))
      out.push({
        check: 'app-settings',
        file: at,
        message: `setting '${name}' (shared/config/settings.ts) is not set by the function app's app settings`,
      });
  for (const [name, value] of bicep) {
    if (FLEX_DEPRECATED_SETTINGS.some((d) => d.toLowerCase() === name.toLowerCase()))
      out.push({ check: 'app-settings', file: at, message: `'${name}' must not be set on Flex Consumption` });
    else if (!schemaNames.includes(name) && !(name in hostOwned))
      out.push({
        check: 'app-settings',
        file: at,
        message: `app setting '${name}' is not read by the code (not in shared/config/settings.ts) nor host-owned`,
      });
    else if (schemaNames.includes(name) && value !== NOT_LITERAL) {
      if (typeof value !== 'string')
        out.push({ check: 'app-settings', file: at, message: `app setting '${name}' must be a string` });
      const parsed = ctx.settings.shape[name].safeParse(value);
      if (!parsed.success)
        out.push({
          check: 'app-settings',
          file: at,
          message: `app setting '${name}' = ${JSON.stringify(value)} fails the schema: ${parsed.error?.issues[0]?.message}`,
        });
    }
  }
  // The app's own limits match the gateway's (the app still enforces the body size behind API Management).
  const gatewayLimits: Record<string, string> = {
    MAX_BODY_BYTES: String(MAX_BODY_BYTES),
    RATE_LIMIT_PER_MINUTE: RATE_LIMIT.calls,
  };
  for (const [name, limit] of Object.entries(gatewayLimits))
    if (schemaNames.includes(name) && bicep.has(name) && bicep.get(name) !== limit)
      out.push({
        check: 'app-settings',
        file: at,
        message: `app setting '${name}' must be '${limit}', the limit API Management enforces`,
      });
  if (schemaNames.includes('AUTH_MODE') && bicep.get('AUTH_MODE') !== 'apim')
    out.push({
      check: 'app-settings',
      file: at,
      message: `AUTH_MODE must be 'apim' in Azure (API Management checks the subscription key and the rate)`,
    });

  // local.settings.sample.json.
  const sampleName = path.basename(ctx.sampleSettingsFile);
  let values: Record<string, unknown> | undefined;
  try {
    values = JSON.parse(fs.readFileSync(ctx.sampleSettingsFile, 'utf8')).Values;
  } catch (e) {
    out.push({ check: 'app-settings', file: sampleName, message: `unreadable: ${(e as Error).message}` });
  }
  if (values) {
    for (const name of schemaNames)
      if (!(name in values))
        out.push({ check: 'app-settings', file: sampleName, message: `setting '${name}' is not listed in Values` });
    for (const name of Object.keys(values))
      if (!schemaNames.includes(name) && !(name in sampleHostOwned))
        out.push({
          check: 'app-settings',
          file: sampleName,
          message: `'${name}' is not read by the code nor by the local Functions host`,
        });
    const schemaValues = Object.fromEntries(Object.entries(values).filter(([k]) => schemaNames.includes(k)));
    const parsed = ctx.settings.schema.safeParse(schemaValues);
    if (!parsed.success)
      for (const issue of parsed.error?.issues ?? [])
        out.push({
          check: 'app-settings',
          file: sampleName,
          message: `Values fail the schema at ${issue.path.join('.') || '(root)'}: ${issue.message}`,
        });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// 9. Storage, function app, roles.

/** Shared keys off, the export queues exist, Flex Consumption on Node 22 with a system identity and its roles. */
export function checkPlatform(infra: Infra): Finding[] {
  const out: Finding[] = [];
  const accounts = resourcesOfType(infra, 'Microsoft.Storage/storageAccounts').filter((r) => !r.resource.existing);
  if (accounts.length === 0) out.push({ check: 'platform', file: 'infra', message: 'no storage account' });
  for (const { file, resource } of accounts)
    if (literalValue(getProperty(resource.body, 'properties', 'allowSharedKeyAccess')) !== false)
      out.push({
        check: 'platform',
        file: rel(infra, file.file),
        message: `storage account ${resource.symbol}: allowSharedKeyAccess must be false (identity everywhere)`,
      });

  const queueLists = infra.main ? literalValue(infra.main.vars.get('queueNames')) : NOT_LITERAL;
  const queues = Array.isArray(queueLists) ? queueLists : [];
  for (const q of EXPORT_QUEUES)
    if (!queues.includes(q))
      out.push({
        check: 'platform',
        file: 'infra/main.bicep',
        message: `queue '${q}' is not in the literal 'queueNames'`,
      });

  const plans = resourcesOfType(infra, 'Microsoft.Web/serverfarms').filter((r) => !r.resource.existing);
  if (!plans.some(({ resource }) => literalValue(getProperty(resource.body, 'sku', 'tier')) === 'FlexConsumption'))
    out.push({ check: 'platform', file: 'infra', message: 'no Flex Consumption plan (sku tier FlexConsumption)' });
  const sites = resourcesOfType(infra, 'Microsoft.Web/sites').filter((r) => !r.resource.existing);
  if (sites.length !== 1) {
    out.push({ check: 'platform', file: 'infra', message: `expected one function app, found ${sites.length}` });
    return out;
  }
  const { file, resource: site } = sites[0];
  const siteFile = rel(infra, file.file);
  const runtime = literalValue(getProperty(site.body, 'properties', 'functionAppConfig', 'runtime'));
  if (JSON.stringify(runtime) !== JSON.stringify({ name: 'node', version: '22' }))
    out.push({
      check: 'platform',
      file: siteFile,
      message: `functionAppConfig.runtime must be node 22, is ${runtime === NOT_LITERAL ? 'computed' : JSON.stringify(runtime)}`,
    });
  if (literalValue(getProperty(site.body, 'identity', 'type')) !== 'SystemAssigned')
    out.push({ check: 'platform', file: siteFile, message: 'the function app needs a system-assigned identity' });
  if (
    literalValue(
      getProperty(site.body, 'properties', 'functionAppConfig', 'deployment', 'storage', 'authentication', 'type'),
    ) !== 'SystemAssignedIdentity'
  )
    out.push({
      check: 'platform',
      file: siteFile,
      message: 'the deployment package must be read with the system-assigned identity',
    });
  const tags = getProperty(site.body, 'tags');
  if (!tags || !/'azd-service-name'\s*:\s*'api'/.test(tags.text))
    out.push({
      check: 'platform',
      file: siteFile,
      message: "the function app must carry the tag 'azd-service-name': 'api' (azure.yaml service)",
    });

  // Role assignments of the function identity, in the function app's file.
  const assigned = roleAssignmentsIn(file).filter((a) => a.principal.includes(`${site.symbol}.identity.principalId`));
  const needed: [string, string][] = [
    ['Storage Blob Data Owner', ROLE_IDS.storageBlobDataOwner],
    ['Storage Queue Data Contributor', ROLE_IDS.storageQueueDataContributor],
    ['Storage Table Data Contributor', ROLE_IDS.storageTableDataContributor],
    ['Key Vault Secrets User', ROLE_IDS.keyVaultSecretsUser],
  ];
  for (const [label, id] of needed)
    if (!assigned.some((a) => a.roleId === id))
      out.push({ check: 'platform', file: siteFile, message: `the function identity lacks ${label} (${id})` });
  return out;
}

/** Role assignments of a file with their role definition id (resolved through `var roles = {...}`) and principal. */
function roleAssignmentsIn(file: BicepFile): { symbol: string; roleId: string | undefined; principal: string }[] {
  return file.resources
    .filter((r) => r.typeAndVersion.toLowerCase().startsWith('microsoft.authorization/roleassignments@'))
    .map((r) => {
      const roleExpr = getProperty(r.body, 'properties', 'roleDefinitionId');
      return {
        symbol: r.symbol,
        roleId: roleExpr ? resolveGuid(file, roleExpr) : undefined,
        principal: getProperty(r.body, 'properties', 'principalId')?.text ?? '',
      };
    });
}

const GUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

function resolveGuid(file: BicepFile, expr: Node): string | undefined {
  const literal = GUID.exec(expr.text);
  if (literal) return literal[0].toLowerCase();
  for (const m of [expr, ...expr.descendantsOfType('member_expression')]) {
    if (!m || m.type !== 'member_expression') continue;
    const [object, prop] = m.namedChildren;
    const table = object?.type === 'identifier' ? literalValue(file.vars.get(object.text)) : NOT_LITERAL;
    if (table && typeof table === 'object' && prop) {
      const value = (table as Record<string, unknown>)[prop.text];
      if (typeof value === 'string' && GUID.test(value)) return value.toLowerCase();
    }
  }
  for (const id of expr.descendantsOfType('identifier')) {
    const v = id ? literalValue(file.vars.get(id.text)) : NOT_LITERAL;
    if (typeof v === 'string' && GUID.test(v)) return v.toLowerCase();
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// 10. API Management: product, API import, named values.

export function checkApim(infra: Infra): Finding[] {
  const out: Finding[] = [];
  const main = infra.main;
  const productParam = main?.params.get(PRODUCT_PARAM);
  if (!productParam)
    out.push({
      check: 'apim',
      file: 'infra/main.bicep',
      message: `parameter '${PRODUCT_PARAM}' (the product identifier, named after the service + "Product") is missing`,
    });
  else if (
    JSON.stringify([...(productParam.allowed ?? [])].sort()) !== JSON.stringify([PRODUCTS.dev, PRODUCTS.prod].sort())
  )
    out.push({
      check: 'apim',
      file: 'infra/main.bicep',
      message: `'${PRODUCT_PARAM}' must allow exactly ${PRODUCTS.dev} and ${PRODUCTS.prod}`,
    });

  for (const [env, product] of Object.entries(PRODUCTS)) {
    const file = path.join(infra.dir, PARAMETER_FILES[env as 'dev' | 'prod']);
    if (!fs.existsSync(file)) continue;
    try {
      const value = JSON.parse(fs.readFileSync(file, 'utf8')).parameters?.[PRODUCT_PARAM]?.value;
      if (value !== product)
        out.push({
          check: 'apim',
          file: `infra/${path.basename(file)}`,
          message: `${PRODUCT_PARAM} must be '${product}', is ${JSON.stringify(value)}`,
        });
    } catch {
      /* reported by checkParameterFiles */
    }
  }

  const products = resourcesOfType(infra, 'Microsoft.ApiManagement/service/products');
  if (products.length !== 1)
    out.push({
      check: 'apim',
      file: 'infra',
      message: `expected one API Management product, found ${products.length}`,
    });
  for (const { file, resource } of products) {
    const name = getProperty(resource.body, 'name');
    const param = name?.type === 'identifier' ? file.params.get(name.text) : undefined;
    if (
      !param ||
      JSON.stringify([...(param.allowed ?? [])].sort()) !== JSON.stringify([PRODUCTS.dev, PRODUCTS.prod].sort())
    )
      out.push({
        check: 'apim',
        file: rel(infra, file.file),
        message: `product ${resource.symbol}: its name must be a parameter allowing ${PRODUCTS.dev} and ${PRODUCTS.prod}`,
      });
    if (literalValue(getProperty(resource.body, 'properties', 'subscriptionRequired')) !== true)
      out.push({
        check: 'apim',
        file: rel(infra, file.file),
        message: `product ${resource.symbol}: subscriptionRequired must be true`,
      });
  }

  const apis = resourcesOfType(infra, 'Microsoft.ApiManagement/service/apis');
  if (apis.length !== 1) out.push({ check: 'apim', file: 'infra', message: `expected one API, found ${apis.length}` });
  for (const { file, resource } of apis) {
    const f = rel(infra, file.file);
    const props = getProperty(resource.body, 'properties');
    if (literalValue(getProperty(props, 'subscriptionRequired')) !== true)
      out.push({ check: 'apim', file: f, message: 'the API must require a subscription' });
    const keyNames = literalValue(getProperty(props, 'subscriptionKeyParameterNames'));
    if (JSON.stringify(keyNames) !== JSON.stringify({ header: SUBSCRIPTION_KEY_HEADER, query: SUBSCRIPTION_KEY_QUERY }))
      out.push({
        check: 'apim',
        file: f,
        message: `subscriptionKeyParameterNames must be { header: '${SUBSCRIPTION_KEY_HEADER}', query: '${SUBSCRIPTION_KEY_QUERY}' }`,
      });
    if (literalValue(getProperty(props, 'format')) !== 'openapi+json')
      out.push({ check: 'apim', file: f, message: "the API is imported with format 'openapi+json'" });
    const loaded = loadedFile(file, getProperty(props, 'value'));
    if (loaded !== path.resolve(infra.dir, 'openapi.json'))
      out.push({ check: 'apim', file: f, message: "the API's value must be loadTextContent of infra/openapi.json" });
    const linked = resourcesOfType(infra, 'Microsoft.ApiManagement/service/products/apis').some(({ resource: link }) =>
      new RegExp(`^${resource.symbol}\\.name$|^'${String(literalValue(getProperty(resource.body, 'name')))}'$`).test(
        getProperty(link.body, 'name')?.text ?? '',
      ),
    );
    if (!linked)
      out.push({ check: 'apim', file: f, message: `the API ${resource.symbol} is not added to the product` });
  }

  const namedValues = resourcesOfType(infra, 'Microsoft.ApiManagement/service/namedValues');
  const fnKey = namedValues.find(
    ({ resource }) =>
      literalValue(getProperty(resource.body, 'properties', 'displayName')) === FUNCTION_KEY_NAMED_VALUE,
  );
  if (!fnKey)
    out.push({ check: 'apim', file: 'infra', message: `named value '${FUNCTION_KEY_NAMED_VALUE}' is missing` });
  else {
    const props = getProperty(fnKey.resource.body, 'properties');
    if (literalValue(getProperty(props, 'secret')) !== true || !getProperty(props, 'keyVault', 'secretIdentifier'))
      out.push({
        check: 'apim',
        file: rel(infra, fnKey.file.file),
        message: `named value '${FUNCTION_KEY_NAMED_VALUE}' must be a secret from Key Vault`,
      });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// 11. Policies.

export interface PolicyFiles {
  global?: { file: string; root: XmlElement };
  api?: { file: string; root: XmlElement };
}

/** Well-formed XML, each file loaded by a template, and the rules of docs/architecture.md, "Identity and access". */
export function checkPolicies(infra: Infra, errorCodes: CheckContext['errorCodes']): Finding[] {
  const out: Finding[] = [];
  const policyDir = path.join(infra.dir, 'policies');
  const xmlFiles = fs.existsSync(policyDir)
    ? fs
        .readdirSync(policyDir)
        .filter((n) => n.endsWith('.xml'))
        .sort()
    : [];
  const parsed = new Map<string, XmlElement>();
  for (const name of xmlFiles) {
    const full = path.join(policyDir, name);
    const xml = fs.readFileSync(full, 'utf8');
    const error = xmlWellFormedError(xml);
    if (error) {
      out.push({ check: 'policies', file: `infra/policies/${name}`, message: `not well-formed XML: ${error}` });
      continue;
    }
    const root = parseXml(xml);
    if (root.name !== 'policies')
      out.push({
        check: 'policies',
        file: `infra/policies/${name}`,
        message: `root element must be <policies>, is <${root.name}>`,
      });
    parsed.set(path.resolve(full), root);
  }

  // Which file is loaded where.
  const loadedBy = (type: string) =>
    resourcesOfType(infra, type).map(({ file, resource }) => ({
      file,
      loaded: loadedFile(file, getProperty(resource.body, 'properties', 'value')),
      resource,
    }));
  const roles: PolicyFiles = {};
  for (const [role, type] of [
    ['global', 'Microsoft.ApiManagement/service/policies'],
    ['api', 'Microsoft.ApiManagement/service/apis/policies'],
  ] as const) {
    const found = loadedBy(type);
    if (found.length !== 1) {
      out.push({ check: 'policies', file: 'infra', message: `expected one ${type} resource, found ${found.length}` });
      continue;
    }
    const { file, loaded, resource } = found[0];
    if (literalValue(getProperty(resource.body, 'properties', 'format')) !== 'xml')
      out.push({
        check: 'policies',
        file: rel(infra, file.file),
        message: `${resource.symbol}: format must be 'xml' (the file is checked as well-formed XML)`,
      });
    const root = loaded ? parsed.get(loaded) : undefined;
    if (!loaded)
      out.push({
        check: 'policies',
        file: rel(infra, file.file),
        message: `${resource.symbol}: value must be loadTextContent of a policies/*.xml file`,
      });
    else if (root) roles[role] = { file: rel(infra, loaded), root };
  }
  const used = new Set([roles.global?.file, roles.api?.file]);
  for (const name of xmlFiles)
    if (!used.has(`infra/policies/${name}`) && parsed.has(path.resolve(policyDir, name)))
      out.push({ check: 'policies', file: `infra/policies/${name}`, message: 'not loaded by any policy resource' });

  if (roles.global) out.push(...checkGlobalPolicy(roles.global.file, roles.global.root));
  if (roles.api) out.push(...checkApiPolicy(roles.api.file, roles.api.root, roles.global?.root));
  for (const role of [roles.global, roles.api])
    if (role) out.push(...checkProblemResponses(role.file, role.root, errorCodes));

  // Every {{named value}} a policy uses is defined.
  const defined = new Set(
    resourcesOfType(infra, 'Microsoft.ApiManagement/service/namedValues').map(({ resource }) =>
      String(literalValue(getProperty(resource.body, 'properties', 'displayName'))),
    ),
  );
  for (const role of [roles.global, roles.api]) {
    if (!role) continue;
    for (const el of allElements(role.root))
      for (const m of deepTextOwn(el).matchAll(/\{\{([^}]+)\}\}/g))
        if (!defined.has(m[1]))
          out.push({
            check: 'policies',
            file: role.file,
            message: `named value {{${m[1]}}} is not defined in the templates`,
          });
  }
  return out;
}

function deepTextOwn(el: XmlElement): string {
  return [...Object.values(el.attrs), el.text].join(' ');
}

function section(root: XmlElement, name: string): XmlElement | undefined {
  return child(root, name);
}

function checkGlobalPolicy(file: string, root: XmlElement): Finding[] {
  const out: Finding[] = [];
  const forward = child(section(root, 'backend'), 'forward-request');
  if (!forward)
    out.push({
      check: 'policies',
      file,
      message: 'the service-scope <backend> must <forward-request>, or no call reaches the app',
    });
  else if (forward.attrs.timeout !== '30')
    out.push({ check: 'policies', file, message: "forward-request timeout must be 30 (the spec's response time-out)" });
  const onError = section(root, 'on-error');
  const handled = (predicate: (condition: string) => boolean, status: string) =>
    allElements(onError ?? root).some(
      (el) =>
        el.name === 'when' && predicate(el.attrs.condition ?? '') && statusOf(child(el, 'return-response')) === status,
    );
  if (!handled((c) => c.includes('SubscriptionKeyNotFound'), '401'))
    out.push({ check: 'policies', file, message: 'on-error must answer SubscriptionKeyNotFound with 401' });
  if (!handled((c) => c.includes('SubscriptionKeyInvalid'), '401'))
    out.push({ check: 'policies', file, message: 'on-error must answer SubscriptionKeyInvalid with 401' });
  if (!handled((c) => c.includes('"rate-limit"') || c.includes('RateLimitExceeded'), '429'))
    out.push({ check: 'policies', file, message: 'on-error must answer the rate limit with 429' });
  const rateBranch = allElements(onError ?? root).find(
    (el) => el.name === 'when' && /rate-limit|RateLimitExceeded/.test(el.attrs.condition ?? ''),
  );
  const retryAfter =
    rateBranch &&
    allElements(rateBranch).find((el) => el.name === 'set-header' && el.attrs.name?.toLowerCase() === 'retry-after');
  if (!retryAfter) out.push({ check: 'policies', file, message: 'the 429 answer must set Retry-After' });
  if (!allElements(onError ?? root).some((el) => el.name === 'otherwise' && child(el, 'return-response')))
    out.push({
      check: 'policies',
      file,
      message: 'on-error needs an <otherwise> problem response for every other gateway error',
    });
  return out;
}

function checkApiPolicy(file: string, root: XmlElement, globalRoot: XmlElement | undefined): Finding[] {
  const out: Finding[] = [];
  for (const name of ['inbound', 'backend', 'outbound', 'on-error']) {
    const s = section(root, name);
    if (!s || !s.children.some((c) => c.name === 'base'))
      out.push({
        check: 'policies',
        file,
        message: `<${name}> must include <base /> (or the service-scope policy is skipped)`,
      });
  }
  const inbound = section(root, 'inbound');
  const els = inbound ? allElements(inbound) : [];

  const rate = els.filter((el) => el.name === 'rate-limit');
  if (rate.length !== 1)
    out.push({ check: 'policies', file, message: `expected one <rate-limit> in <inbound>, found ${rate.length}` });
  else {
    if (rate[0].attrs.calls !== RATE_LIMIT.calls || rate[0].attrs['renewal-period'] !== RATE_LIMIT.renewalPeriod)
      out.push({
        check: 'policies',
        file,
        message: `rate-limit must be calls="${RATE_LIMIT.calls}" renewal-period="${RATE_LIMIT.renewalPeriod}", is calls="${rate[0].attrs.calls}" renewal-period="${rate[0].attrs['renewal-period']}"`,
      });
    const variable = rate[0].attrs['retry-after-variable-name'];
    if (!variable)
      out.push({
        check: 'policies',
        file,
        message: 'rate-limit needs retry-after-variable-name (the 429 answer reads it for Retry-After)',
      });
    else if (globalRoot && !deepText(globalRoot).includes(`"${variable}"`))
      out.push({ check: 'policies', file, message: `the 429 answer does not read the variable '${variable}'` });
  }

  // 401 without the SID key.
  const sidBranch = els.find((el) => el.name === 'when' && (el.attrs.condition ?? '').includes(SID_HEADER));
  const checkHeader = els.find(
    (el) => el.name === 'check-header' && el.attrs.name === SID_HEADER && el.attrs['failed-check-httpcode'] === '401',
  );
  if (!checkHeader && (!sidBranch || statusOf(child(sidBranch, 'return-response')) !== '401'))
    out.push({ check: 'policies', file, message: `a missing ${SID_HEADER} must be answered 401` });

  // 413 over 1 MB.
  const sizeBranch = els.find((el) => el.name === 'when' && statusOf(child(el, 'return-response')) === '413');
  if (!sizeBranch) out.push({ check: 'policies', file, message: 'a body over the size limit must be answered 413' });
  else {
    const condition = sizeBranch.attrs.condition ?? '';
    const numbers = [...condition.matchAll(/\d{4,}/g)].map((m) => Number(m[0]));
    if (!numbers.includes(MAX_BODY_BYTES))
      out.push({
        check: 'policies',
        file,
        message: `the size check must compare with ${MAX_BODY_BYTES} bytes (1 MB), found ${numbers.join(', ') || 'no number'}`,
      });
    const variable = /context\.Variables\["([^"]+)"\]/.exec(condition)?.[1];
    if (variable) {
      const setter = els.find((el) => el.name === 'set-variable' && el.attrs.name === variable);
      if (!setter || !/Content-Length/i.test(setter.attrs.value ?? ''))
        out.push({
          check: 'policies',
          file,
          message: `the size variable '${variable}' must be measured (Content-Length, or the body)`,
        });
    } else if (!/Content-Length|Body/i.test(condition))
      out.push({ check: 'policies', file, message: 'the size check must measure Content-Length or the body' });
  }

  // Header hygiene towards the backend.
  const setHeader = (name: string) =>
    els.filter((el) => el.name === 'set-header' && el.attrs.name?.toLowerCase() === name.toLowerCase());
  if (!setHeader(SUBSCRIPTION_KEY_HEADER).some((el) => el.attrs['exists-action'] === 'delete'))
    out.push({
      check: 'policies',
      file,
      message: `${SUBSCRIPTION_KEY_HEADER} must be removed before the backend (set-header exists-action="delete")`,
    });
  if (
    !els.some(
      (el) =>
        el.name === 'set-query-parameter' &&
        el.attrs.name === SUBSCRIPTION_KEY_QUERY &&
        el.attrs['exists-action'] === 'delete',
    )
  )
    out.push({
      check: 'policies',
      file,
      message: `the ${SUBSCRIPTION_KEY_QUERY} query parameter must be removed before the backend`,
    });
  const identity = setHeader(IDENTITY_HEADER);
  if (
    !identity.some((el) => el.attrs['exists-action'] === 'override' && /context\.Subscription\.Id/.test(deepText(el)))
  )
    out.push({
      check: 'policies',
      file,
      message: `${IDENTITY_HEADER} must be set with exists-action="override" from context.Subscription.Id`,
    });
  const fnKey = setHeader(FUNCTION_KEY_HEADER);
  if (
    !fnKey.some(
      (el) => el.attrs['exists-action'] === 'override' && deepText(el).includes(`{{${FUNCTION_KEY_NAMED_VALUE}}}`),
    )
  )
    out.push({
      check: 'policies',
      file,
      message: `${FUNCTION_KEY_HEADER} must be set (override) from {{${FUNCTION_KEY_NAMED_VALUE}}}`,
    });
  return out;
}

function statusOf(returnResponse: XmlElement | undefined): string | undefined {
  return child(returnResponse, 'set-status')?.attrs.code;
}

/** Every return-response answers problem details with the app's shape, type URI and error codes. */
function checkProblemResponses(file: string, root: XmlElement, errorCodes: CheckContext['errorCodes']): Finding[] {
  const out: Finding[] = [];
  for (const rr of allElements(root).filter((el) => el.name === 'return-response')) {
    const status = statusOf(rr);
    const label = `return-response ${status ?? '(no status)'}`;
    const contentType = allElements(rr).find(
      (el) => el.name === 'set-header' && el.attrs.name?.toLowerCase() === 'content-type',
    );
    if (child(contentType, 'value')?.text !== 'application/problem+json')
      out.push({ check: 'policies', file, message: `${label}: Content-Type must be application/problem+json` });
    const body = child(rr, 'set-body')?.text ?? '';
    let problem: Record<string, unknown>;
    try {
      problem = JSON.parse(body);
    } catch {
      out.push({ check: 'policies', file, message: `${label}: the body must be static problem-details JSON` });
      continue;
    }
    const keys = Object.keys(problem).sort().join(',');
    if (keys !== 'detail,errors,status,title,type')
      out.push({
        check: 'policies',
        file,
        message: `${label}: body keys must be type, title, status, detail, errors (are ${keys})`,
      });
    if (String(problem.status) !== status)
      out.push({
        check: 'policies',
        file,
        message: `${label}: body status ${String(problem.status)} differs from the response status`,
      });
    if (problem.type !== `${PROBLEM_TYPE_PREFIX}${status}`)
      out.push({ check: 'policies', file, message: `${label}: type must be ${PROBLEM_TYPE_PREFIX}${status}` });
    const errors = Array.isArray(problem.errors) ? (problem.errors as Record<string, unknown>[]) : [];
    if (errors.length === 0)
      out.push({ check: 'policies', file, message: `${label}: errors must list at least one violation` });
    for (const e of errors) {
      if (Object.keys(e).sort().join(',') !== 'code,message,path')
        out.push({ check: 'policies', file, message: `${label}: each error has code, path, message` });
      const known = errorCodes[String(e.code)];
      if (!known)
        out.push({
          check: 'policies',
          file,
          message: `${label}: error code ${String(e.code)} is not in shared/domain/errors.ts`,
        });
      else if (String(known[0]) !== status)
        out.push({
          check: 'policies',
          file,
          message: `${label}: error code ${String(e.code)} is a ${known[0]} code`,
        });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// 12. azure.yaml.

/** A tiny reader for the mapping subset of YAML azure.yaml uses: nested `key: value`, block scalars skipped. */
export function readYamlMapping(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  const stack: { indent: number; node: Record<string, unknown> }[] = [{ indent: -1, node: root }];
  let blockIndent: number | undefined;
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s*(#.*)?$/.test(raw)) continue;
    const indent = raw.length - raw.trimStart().length;
    if (blockIndent !== undefined) {
      if (indent > blockIndent) continue;
      blockIndent = undefined;
    }
    const m = /^(\s*)([A-Za-z0-9_.-]+):\s*(.*?)\s*$/.exec(raw);
    if (!m) continue;
    while (stack.length > 1 && stack[stack.length - 1].indent >= indent) stack.pop();
    const parent = stack[stack.length - 1].node;
    const value = m[3].replace(/\s+#.*$/, '');
    if (value === '') {
      const node: Record<string, unknown> = {};
      parent[m[2]] = node;
      stack.push({ indent, node });
    } else {
      if (value === '|' || value === '>' || value === '|-' || value === '>-') blockIndent = indent;
      parent[m[2]] = value.replace(/^(['"])(.*)\1$/, '$2');
    }
  }
  return root;
}

/** azd provisions infra/main.bicep and deploys this project as the function app service `api`. */
export function checkAzureYaml(infra: Infra, azureYamlFile: string): Finding[] {
  const out: Finding[] = [];
  const file = path.basename(azureYamlFile);
  if (!fs.existsSync(azureYamlFile)) return [{ check: 'azure-yaml', file, message: 'missing' }];
  const yaml = readYamlMapping(fs.readFileSync(azureYamlFile, 'utf8'));
  const get = (...keys: string[]) =>
    keys.reduce<unknown>((n, k) => (n && typeof n === 'object' ? (n as Record<string, unknown>)[k] : undefined), yaml);
  const expect = (keys: string[], value: string) => {
    if (get(...keys) !== value)
      out.push({
        check: 'azure-yaml',
        file,
        message: `${keys.join('.')} must be '${value}', is ${JSON.stringify(get(...keys))}`,
      });
  };
  expect(['infra', 'provider'], 'bicep');
  expect(['infra', 'path'], path.basename(infra.dir) === 'infra' ? 'infra' : path.basename(infra.dir));
  expect(['infra', 'module'], 'main');
  expect(['services', 'api', 'project'], '.');
  expect(['services', 'api', 'language'], 'js');
  expect(['services', 'api', 'host'], 'function');
  // The lean package npm run build writes (local/build-package.ts), never the repository with its dev tooling.
  expect(['services', 'api', 'dist'], 'dist/deploy');
  if (!/write-openapi\.js --check/.test(JSON.stringify(get('hooks', 'preprovision', 'posix', 'run') ?? '')))
    out.push({
      check: 'azure-yaml',
      file,
      message: 'the preprovision hook must check infra/openapi.json (write-openapi.js --check)',
    });
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Everything.

export async function runAllChecks(ctx: CheckContext): Promise<Finding[]> {
  const infra = await loadInfra(ctx.infraDir);
  return [
    ...checkBicepSyntax(infra),
    ...checkLoadedFiles(infra),
    ...checkModules(infra),
    ...checkSymbols(infra),
    ...checkResourceTypes(infra, ctx.verifiedResourceTypes),
    ...checkParameterFiles(infra),
    ...checkSecrets(infra),
    ...checkAppSettings(infra, ctx),
    ...checkPlatform(infra),
    ...checkApim(infra),
    ...checkPolicies(infra, ctx.errorCodes),
    ...checkAzureYaml(infra, ctx.azureYamlFile),
  ];
}
