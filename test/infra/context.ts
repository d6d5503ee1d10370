/** The real inputs of the infra checks: the repository's infra/, sample settings, settings schema and error codes. */
import * as path from 'node:path';
import { settingsSchema } from '../../shared/config/settings';
import { ErrorCode } from '../../shared/domain/errors';
import { ERROR_CODES, HTTP_STATUS } from '../../shared/app/error-codes';
import { CheckContext, ResourceSchemas, SettingsAllowlist } from './checks/model';
import resourceSchemasJson from './resource-schemas.json';
import allowlistJson from './settings-allowlist.json';
import verifiedJson from './verified-resource-types.json';

export const REPO_ROOT = path.resolve(__dirname, '../..');
export const INFRA_DIR = path.join(REPO_ROOT, 'infra');
export const SAMPLE_SETTINGS_FILE = path.join(REPO_ROOT, 'local.settings.sample.json');
export const AZURE_YAML_FILE = path.join(REPO_ROOT, 'azure.yaml');
export const HOST_JSON_FILE = path.join(REPO_ROOT, 'host.json');

const allowlist: SettingsAllowlist = {
  localOnly: allowlistJson.localOnly,
  hostOwned: allowlistJson.hostOwned,
  awaitingCode: allowlistJson.awaitingCode,
  sampleHostOwned: allowlistJson.sampleHostOwned,
};

/** Read at test time, so a setting added to the schema is checked the moment it exists. */
export function realContext(overrides: Partial<CheckContext> = {}): CheckContext {
  return {
    infraDir: INFRA_DIR,
    sampleSettingsFile: SAMPLE_SETTINGS_FILE,
    settings: {
      schema: settingsSchema,
      shape: settingsSchema.shape,
    },
    allowlist,
    errorCodes: Object.fromEntries(
      Object.entries(ERROR_CODES).map(([code, text]) => [code, [HTTP_STATUS[code as ErrorCode], text] as const]),
    ),
    verifiedResourceTypes: { azure: verifiedJson.azure.types, graph: verifiedJson.graph },
    azureYamlFile: AZURE_YAML_FILE,
    hostJsonFile: HOST_JSON_FILE,
    resourceSchemas: resourceSchemasJson as ResourceSchemas,
    ...overrides,
  };
}
