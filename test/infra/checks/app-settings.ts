/** App settings against shared/config/settings.ts and local.settings.sample.json. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { getProperty, literalValue, NOT_LITERAL, objectProperties } from '../bicep';
import { FLEX_DEPRECATED_SETTINGS, MAX_BODY_BYTES, RATE_LIMIT } from './contract';
import { CheckContext, Finding, Infra, moduleTarget, rel } from './model';

/** The parameter of the function app module that carries the settings the code reads. */
export const APP_SETTINGS_PARAM = 'appSettings';
/** The variable of the function app module that carries the settings the Functions host reads. */
export const HOST_SETTINGS_VAR = 'hostAppSettings';

interface AppSettingsFound {
  /** Setting name to its literal value (NOT_LITERAL when computed). */
  settings: Map<string, unknown>;
  findings: Finding[];
}

/**
 * The app settings the templates set: the keys of the `appSettings` object literal passed to the function app
 * module (the module with a Microsoft.Web/sites resource and an `appSettings` parameter) plus the keys of that
 * module's `hostAppSettings` variable. Both must be object literals, so the names can be read without deploying.
 */
function findAppSettings(infra: Infra): AppSettingsFound {
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
  const { localOnly, hostOwned, awaitingCode, sampleHostOwned } = ctx.allowlist;
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
  // A setting set ahead of its code: gone from the list once the code reads it, and set until then.
  for (const name of Object.keys(awaitingCode)) {
    if (schemaNames.includes(name))
      out.push({
        check: 'app-settings',
        file: 'test/infra/settings-allowlist.json',
        message: `awaitingCode '${name}' is in the schema now: remove it from the list`,
      });
    if (!bicep.has(name))
      out.push({
        check: 'app-settings',
        file: at,
        message: `'${name}' is awaiting its code (allow-list) but the templates do not set it`,
      });
  }

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
    else if (!schemaNames.includes(name) && !(name in hostOwned) && !(name in awaitingCode))
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
