/**
 * The values docs/architecture.md ("Identity and access"), the interface specification and the platform fix, which the
 * checks compare the templates and policies with.
 */
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

/** Built-in role definition ids the checks look for (checked against the Azure RBAC built-in roles list). */
export const ROLE_IDS = {
  storageBlobDataOwner: 'b7e6dc6d-f1e8-4753-8033-0f276bb0955b',
  storageQueueDataContributor: '974c5e8b-45b9-4653-ba55-5f855dd0fb88',
  storageTableDataContributor: '0a9a7e1f-b9d0-4cc4-a60d-0319b160aaa3',
  keyVaultSecretsUser: '4633458b-17de-408a-b874-0445c86b69e6',
};
