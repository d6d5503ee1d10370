/**
 * No local authentication anywhere: every caller of every service is an Entra ID identity. Shared keys off on storage,
 * access keys off on Communication Services (API 2025-05-01 and later), instrumentation-key ingestion off on
 * Application Insights (the host sends with its identity instead), access policies off on Key Vault (RBAC only), and
 * no user name and password publishing on the function app (SCM and FTP), which also requires TLS 1.2. FTPS itself
 * cannot be switched on or off on Flex Consumption (ftpsState is among its deprecated properties): it must not be set.
 */
import { getProperty, literalValue } from '../bicep';
import { HOST_SETTINGS_VAR } from './app-settings';
import { Finding, Infra, isSimulatorFile, rel, resourcesOfType } from './model';

export function checkLocalAuth(infra: Infra): Finding[] {
  const out: Finding[] = [];
  const expectLiteral = (type: string, path: string[], value: unknown, why: string) => {
    const found = resourcesOfType(infra, type).filter((r) => !r.resource.existing);
    if (found.length === 0) out.push({ check: 'local-auth', file: 'infra', message: `no ${type} resource` });
    for (const { file, resource } of found)
      if (literalValue(getProperty(resource.body, ...path)) !== value)
        out.push({
          check: 'local-auth',
          file: rel(infra, file.file),
          message: `${resource.symbol}: ${path.join('.')} must be ${JSON.stringify(value)} (${why})`,
        });
  };
  expectLiteral(
    'Microsoft.Storage/storageAccounts',
    ['properties', 'allowSharedKeyAccess'],
    false,
    'identity everywhere',
  );
  expectLiteral(
    'Microsoft.Communication/communicationServices',
    ['properties', 'disableLocalAuth'],
    true,
    'no access keys',
  );
  expectLiteral(
    'Microsoft.Insights/components',
    ['properties', 'DisableLocalAuth'],
    true,
    'no instrumentation-key ingestion',
  );
  expectLiteral(
    'Microsoft.KeyVault/vaults',
    ['properties', 'enableRbacAuthorization'],
    true,
    'RBAC, no access policies',
  );
  expectLiteral('Microsoft.Web/sites', ['properties', 'siteConfig', 'minTlsVersion'], '1.2', 'set explicitly');
  expectLiteral('Microsoft.Web/sites', ['properties', 'siteConfig', 'scmMinTlsVersion'], '1.2', 'set explicitly');

  for (const { file, resource } of resourcesOfType(infra, 'Microsoft.Web/sites').filter((r) => !r.resource.existing)) {
    const at = rel(infra, file.file);
    if (getProperty(resource.body, 'properties', 'siteConfig', 'ftpsState'))
      out.push({
        check: 'local-auth',
        file: at,
        message: `${resource.symbol}: siteConfig.ftpsState must not be set: Flex Consumption has no FTP or FTPS (a deprecated property)`,
      });
    for (const method of ['scm', 'ftp']) {
      const policy = file.resources.find(
        (r) =>
          r.typeAndVersion.toLowerCase().startsWith('microsoft.web/sites/basicpublishingcredentialspolicies@') &&
          getProperty(r.body, 'parent')?.text === resource.symbol &&
          literalValue(getProperty(r.body, 'name')) === method,
      );
      if (!policy || literalValue(getProperty(policy.body, 'properties', 'allow')) !== false)
        out.push({
          check: 'local-auth',
          file: at,
          message: `${resource.symbol}: basic publishing credentials for ${method.toUpperCase()} must be off (basicPublishingCredentialsPolicies '${method}' allow: false)`,
        });
    }
    // With local authentication off on Application Insights, the host must send telemetry with an Entra ID token. The
    // sandbox's SIEX simulator sends none (sandbox.ts: no Application Insights setting at all).
    if (isSimulatorFile(infra, file)) continue;
    const hostSettings = file.vars.get(HOST_SETTINGS_VAR);
    const authString = getProperty(hostSettings, 'APPLICATIONINSIGHTS_AUTHENTICATION_STRING')?.text ?? '';
    if (!/Authorization=AAD/.test(authString))
      out.push({
        check: 'local-auth',
        file: at,
        message: `${HOST_SETTINGS_VAR} must set APPLICATIONINSIGHTS_AUTHENTICATION_STRING to 'ClientId=<identity>;Authorization=AAD'`,
      });
  }
  return out;
}
