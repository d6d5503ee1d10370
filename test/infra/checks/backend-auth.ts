/**
 * The backend answers API Management only, and the deployment never reads a key. App Service authentication on the
 * function app requires a token (401 otherwise), for the gateway's Entra ID application, issued to API Management's
 * identity (403 for any other caller), on every path; API Management asks for that token with that identity and
 * names that application; and no template calls a list*() function (listKeys on the site was the race that could fail
 * a first deployment, and any key read at deployment would be a secret in it).
 */
import type { Node } from 'web-tree-sitter';
import { BicepFile, getProperty, literalValue } from '../bicep';
import { APP_SETTINGS_PARAM } from './app-settings';
import { APIM_CLIENT_ID_NAMED_VALUE, BACKEND_APP_NAMED_VALUE } from './contract';
import { Finding, gatewaySites, Infra, mainExpression, rel, resourceBySymbol, resourcesOfType } from './model';

const API_APP = /^apiRegistration\.outputs\.clientId$/;
const APIM_CLIENT = /^identities\.outputs\.apimClientId$/;
const APIM_PRINCIPAL = /^identities\.outputs\.apimPrincipalId$/;
const APIM_IDENTITY = /^identities\.outputs\.apimIdentityId$/;

export function checkBackendAuth(infra: Infra): Finding[] {
  return [
    ...checkNoListCalls(infra),
    ...checkSiteAuthentication(infra),
    ...checkGatewayIdentity(infra),
    ...checkAppTrust(infra),
  ];
}

/** In `apim` mode the app believes API Management's headers only from the principal App Service authentication admits. */
function checkAppTrust(infra: Infra): Finding[] {
  const passed = (infra.main?.modules ?? [])
    .map((m) => getProperty(m.body, 'params', APP_SETTINGS_PARAM, 'APIM_PRINCIPAL_ID'))
    .filter((n): n is Node => n !== undefined);
  return passed.length === 1 && APIM_PRINCIPAL.test(passed[0]?.text ?? '')
    ? []
    : [
        {
          check: 'backend-auth',
          file: 'infra/main.bicep',
          message:
            "app setting APIM_PRINCIPAL_ID must be API Management's identity (identities.outputs.apimPrincipalId), the one App Service authentication admits",
        },
      ];
}

/**
 * The one key a template may read: the availability test's own API Management subscription key
 * (modules/alerts.bicep), which the standard test must send as a header. It is scoped to the API, and the app refuses
 * every data call whose SID key is not the subscription's own client's, so it reaches the OpenAPI document only.
 */
function isMonitoringKey(file: BicepFile, name: string): boolean {
  const [symbol, method] = name.split('.');
  const resource = symbol === undefined ? undefined : resourceBySymbol(file, symbol);
  return (
    method === 'listSecrets' &&
    resource?.typeAndVersion.startsWith('Microsoft.ApiManagement/service/subscriptions@') === true &&
    file.resources.some((r) => r.typeAndVersion.startsWith('Microsoft.Insights/webtests@'))
  );
}

function checkNoListCalls(infra: Infra): Finding[] {
  const out: Finding[] = [];
  for (const f of infra.files.values())
    for (const call of f.root.descendantsOfType('call_expression')) {
      const name = call?.childForFieldName('function')?.text ?? '';
      if (call && /^list/i.test(name.split('.').pop() ?? '') && !isMonitoringKey(f, name))
        out.push({
          check: 'backend-auth',
          file: rel(infra, f.file),
          message: `${name}() at ${call.startPosition.row + 1}:${call.startPosition.column + 1}: no template reads keys (listKeys on the site depends on the host running; API Management authenticates with its identity instead)`,
        });
    }
  return out;
}

function checkSiteAuthentication(infra: Infra): Finding[] {
  const out: Finding[] = [];
  // The sandbox's SIEX simulator is called by the gateway as SIEX is, not through API Management (sandbox.ts).
  for (const { file, resource: site } of gatewaySites(infra)) {
    const at = rel(infra, file.file);
    const auth = file.resources.find(
      (r) =>
        r.typeAndVersion.toLowerCase().startsWith('microsoft.web/sites/config@') &&
        getProperty(r.body, 'parent')?.text === site.symbol &&
        literalValue(getProperty(r.body, 'name')) === 'authsettingsV2',
    );
    if (!auth) {
      out.push({
        check: 'backend-auth',
        file: at,
        message: `${site.symbol}: needs App Service authentication (a sites/config 'authsettingsV2' child): nothing else keeps callers other than API Management out`,
      });
      continue;
    }
    const props = getProperty(auth.body, 'properties');
    const need = (path: string[], value: unknown, why: string) => {
      if (literalValue(getProperty(props, ...path)) !== value)
        out.push({
          check: 'backend-auth',
          file: at,
          message: `${auth.symbol}: ${path.join('.')} must be ${JSON.stringify(value)} (${why})`,
        });
    };
    need(['platform', 'enabled'], true, 'without it the settings are stored but nothing is enforced');
    need(['globalValidation', 'requireAuthentication'], true, 'every request, before any function runs');
    need(['globalValidation', 'unauthenticatedClientAction'], 'Return401', 'an API answers 401, never a login page');
    need(['identityProviders', 'azureActiveDirectory', 'enabled'], true, 'Entra ID tokens');
    const excluded = literalValue(getProperty(props, 'globalValidation', 'excludedPaths'));
    if (getProperty(props, 'globalValidation', 'excludedPaths') && !(Array.isArray(excluded) && excluded.length === 0))
      out.push({
        check: 'backend-auth',
        file: at,
        message: `${auth.symbol}: no path may be excluded from authentication (openapi included: it is served through API Management)`,
      });
    const providers = (getProperty(props, 'identityProviders')?.namedChildren ?? [])
      .filter((p) => p.type === 'object_property')
      .map((p) => p.namedChildren[0]?.text);
    if (providers.some((p) => p !== 'azureActiveDirectory'))
      out.push({
        check: 'backend-auth',
        file: at,
        message: `${auth.symbol}: Entra ID must be the only identity provider, has ${providers.join(', ')}`,
      });
    const aad = getProperty(props, 'identityProviders', 'azureActiveDirectory');
    const names = (node: Node | undefined, pattern: RegExp) => pattern.test(mainExpression(infra, file, node));
    const only = (node: Node | undefined, pattern: RegExp) => {
      const items = node?.type === 'array' ? node.namedChildren.filter((n) => n.type !== 'comment') : [];
      return items.length === 1 && names(items[0], pattern);
    };
    if (!names(getProperty(aad, 'registration', 'clientId'), API_APP))
      out.push({
        check: 'backend-auth',
        file: at,
        message: `${auth.symbol}: registration.clientId must be the gateway's application (apiRegistration.outputs.clientId)`,
      });
    if (!/\/v2\.0'$/.test(getProperty(aad, 'registration', 'openIdIssuer')?.text ?? ''))
      out.push({
        check: 'backend-auth',
        file: at,
        message: `${auth.symbol}: registration.openIdIssuer must be the tenant's v2.0 issuer (the application asks for v2 tokens)`,
      });
    if (!only(getProperty(aad, 'validation', 'allowedAudiences'), API_APP))
      out.push({
        check: 'backend-auth',
        file: at,
        message: `${auth.symbol}: validation.allowedAudiences must be the gateway's application only`,
      });
    const policy = getProperty(aad, 'validation', 'defaultAuthorizationPolicy');
    if (!only(getProperty(policy, 'allowedApplications'), APIM_CLIENT))
      out.push({
        check: 'backend-auth',
        file: at,
        message: `${auth.symbol}: defaultAuthorizationPolicy.allowedApplications must be API Management's identity only (identities.outputs.apimClientId)`,
      });
    if (!only(getProperty(policy, 'allowedPrincipals', 'identities'), APIM_PRINCIPAL))
      out.push({
        check: 'backend-auth',
        file: at,
        message: `${auth.symbol}: defaultAuthorizationPolicy.allowedPrincipals.identities must be API Management's identity only (identities.outputs.apimPrincipalId)`,
      });
  }
  return out;
}

/** API Management runs as its identity and asks for the token of the gateway's application with it. */
function checkGatewayIdentity(infra: Infra): Finding[] {
  const out: Finding[] = [];
  for (const { file, resource } of resourcesOfType(infra, 'Microsoft.ApiManagement/service').filter(
    (r) => !r.resource.existing,
  )) {
    const identities = getProperty(resource.body, 'identity', 'userAssignedIdentities');
    const key = identities?.namedChildren.find((p) => p.type === 'object_property')?.namedChildren[0];
    const keyExpr =
      key?.type === 'string' ? key.namedChildren.find((c) => c.type === 'interpolation')?.namedChildren[0] : key;
    if (
      literalValue(getProperty(resource.body, 'identity', 'type')) !== 'UserAssigned' ||
      !APIM_IDENTITY.test(mainExpression(infra, file, keyExpr))
    )
      out.push({
        check: 'backend-auth',
        file: rel(infra, file.file),
        message: `${resource.symbol}: must run as API Management's identity of identities.bicep (UserAssigned), the one the function app admits`,
      });
  }
  const namedValues = resourcesOfType(infra, 'Microsoft.ApiManagement/service/namedValues');
  for (const [name, pattern, what] of [
    [BACKEND_APP_NAMED_VALUE, API_APP, "the gateway's application (apiRegistration.outputs.clientId)"],
    [APIM_CLIENT_ID_NAMED_VALUE, APIM_CLIENT, "API Management's identity (identities.outputs.apimClientId)"],
  ] as const) {
    const found = namedValues.find(
      ({ resource }) => literalValue(getProperty(resource.body, 'properties', 'displayName')) === name,
    );
    if (!found) {
      out.push({ check: 'backend-auth', file: 'infra', message: `named value '${name}' is missing` });
      continue;
    }
    const props = getProperty(found.resource.body, 'properties');
    if (!pattern.test(mainExpression(infra, found.file, getProperty(props, 'value'))))
      out.push({
        check: 'backend-auth',
        file: rel(infra, found.file.file),
        message: `named value '${name}' must hold ${what}`,
      });
    if (getProperty(props, 'keyVault'))
      out.push({
        check: 'backend-auth',
        file: rel(infra, found.file.file),
        message: `named value '${name}' is not a secret and must not come from Key Vault (API Management reads nothing there)`,
      });
  }
  return out;
}
