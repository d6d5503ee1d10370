/**
 * The values docs/architecture.md ("Identity and access"), the interface specification and the platform fix, which the
 * checks compare the templates and policies with.
 */
export const SID_HEADER = 'Ocp-Apim-Sid-Key';
export const SUBSCRIPTION_KEY_HEADER = 'Ocp-Apim-Subscription-Key';
export const SUBSCRIPTION_KEY_QUERY = 'subscription-key';
/** The header API Management sets to the caller's subscription id; always overwritten, so never forged. */
export const IDENTITY_HEADER = 'X-Apim-Subscription-Id';
/** The header that carried the Functions host key in the design this one replaced; nothing may set it now. */
export const FUNCTION_KEY_HEADER = 'x-functions-key';
/** Named values of the token API Management presents to the backend: its audience, and the identity that asks. */
export const BACKEND_APP_NAMED_VALUE = 'backend-app-id';
export const APIM_CLIENT_ID_NAMED_VALUE = 'apim-identity-client-id';
/** Headers and query parameters that carry credentials: hidden in every API Management log. */
export const KEY_HEADERS = [SUBSCRIPTION_KEY_HEADER, SID_HEADER, 'Authorization'];
export const KEY_QUERY_PARAMS = [SUBSCRIPTION_KEY_QUERY];
export const RATE_LIMIT = { calls: '100', renewalPeriod: '60' };
export const MAX_BODY_BYTES = 1048576;
export const PRODUCT_PARAM = 'apiServiceSiexProduct';
export const PRODUCTS = { dev: 'api-service-siex-dev', prod: 'api-service-siex' } as const;
/** API Management tiers production may use: an SLA, the developer portal, gateway logs in Log Analytics. */
export const PRODUCTION_TIERS = ['BasicV2', 'StandardV2'];
/** The queues the app uses (exports, webhook deliveries, and their poison queues): the app's own list, not a copy. */
export { APP_QUEUES } from '../../../shared/store/queues';
/**
 * The availability monitor's product in API Management (issue 36, L1): one API of one operation, GET /v1/health, so the
 * key the availability test's definition shows reaches nothing else.
 */
export const MONITOR = {
  product: 'availability-monitor',
  api: 'siex-gateway-monitor',
  method: 'GET',
  urlTemplate: '/v1/health',
};
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

/**
 * How main.bicep names each identity that gets roles (an output of identities.bicep, or the operator's parameter), so a
 * role assignment in any module can be attributed to one of them.
 */
export const PRINCIPALS = {
  function: /^identities\.outputs\.functionPrincipalId$/,
  apim: /^identities\.outputs\.apimPrincipalId$/,
  operator: /^standingOperatorId$/,
  // The sandbox profile's SIEX simulator (modules/siexSimulator.bicep).
  simulator: /^identities\.outputs\.simulatorPrincipalId$/,
} as const;
export type Principal = keyof typeof PRINCIPALS;

/** Built-in role definition ids (the Azure RBAC built-in roles list). */
export const ROLE_IDS = {
  storageBlobDataOwner: 'b7e6dc6d-f1e8-4753-8033-0f276bb0955b',
  storageBlobDataContributor: 'ba92f5b4-2d11-453d-a403-e96b0029c9fe',
  storageBlobDataReader: '2a2b9908-6ea1-4ae2-8e65-a410df84e7d1',
  storageQueueDataContributor: '974c5e8b-45b9-4653-ba55-5f855dd0fb88',
  storageTableDataContributor: '0a9a7e1f-b9d0-4cc4-a60d-0319b160aaa3',
  keyVaultSecretsUser: '4633458b-17de-408a-b874-0445c86b69e6',
  keyVaultSecretsOfficer: 'b86a8fe4-44ce-4948-aee5-eccb2c155cd7',
  keyVaultCertificatesOfficer: 'a4417e6f-fecd-4de8-b567-7b0420556985',
  monitoringMetricsPublisher: '3913510d-42f4-4e42-8a64-420c390055eb',
};

/** The actions Microsoft documents for sending e-mail with an Entra ID identity through a custom role. */
export const EMAIL_SENDER_ACTIONS = [
  'Microsoft.Communication/CommunicationServices/Read',
  'Microsoft.Communication/CommunicationServices/Write',
  'Microsoft.Communication/EmailServices/write',
];

export interface RoleGrant {
  principal: Principal;
  /** Built-in role id, or `custom:email-sender` for the custom role whose actions are EMAIL_SENDER_ACTIONS. */
  role: string;
  label: string;
  /** The type of the resource the assignment is scoped to. */
  scope: string;
}

/** Every role any identity holds, and on what: the whole list, so any other assignment is a finding. */
export const ROLE_GRANTS: RoleGrant[] = [
  // The sandbox's SIEX simulator: its own host account (function keys, locks, its package), and siex-password behind
  // its Key Vault reference. Nothing of the gateway's data.
  {
    principal: 'simulator',
    role: ROLE_IDS.storageBlobDataOwner,
    label: 'Storage Blob Data Owner',
    scope: 'Microsoft.Storage/storageAccounts',
  },
  {
    principal: 'simulator',
    role: ROLE_IDS.keyVaultSecretsUser,
    label: 'Key Vault Secrets User',
    scope: 'Microsoft.KeyVault/vaults',
  },
  // The function app: host storage (its own account: locks, the deployment package), the export queues, its tables, the SIEX
  // secrets behind its Key Vault references, its telemetry, and sending the outcome e-mail.
  {
    principal: 'function',
    role: ROLE_IDS.storageBlobDataOwner,
    label: 'Storage Blob Data Owner',
    scope: 'Microsoft.Storage/storageAccounts',
  },
  // The nightly table backup, on the backup account (modules/backup.bicep): it writes; immutability forbids the rest.
  {
    principal: 'function',
    role: ROLE_IDS.storageBlobDataContributor,
    label: 'Storage Blob Data Contributor',
    scope: 'Microsoft.Storage/storageAccounts',
  },
  // The export queue and its poison queue, each: not the account, whose other queues it has no business with.
  {
    principal: 'function',
    role: ROLE_IDS.storageQueueDataContributor,
    label: 'Storage Queue Data Contributor',
    scope: 'Microsoft.Storage/storageAccounts/queueServices/queues',
  },
  {
    principal: 'function',
    role: ROLE_IDS.storageTableDataContributor,
    label: 'Storage Table Data Contributor',
    scope: 'Microsoft.Storage/storageAccounts',
  },
  {
    principal: 'function',
    role: ROLE_IDS.keyVaultSecretsUser,
    label: 'Key Vault Secrets User',
    scope: 'Microsoft.KeyVault/vaults',
  },
  {
    principal: 'function',
    role: ROLE_IDS.monitoringMetricsPublisher,
    label: 'Monitoring Metrics Publisher',
    scope: 'Microsoft.Insights/components',
  },
  {
    principal: 'function',
    role: 'custom:email-sender',
    label: 'the custom e-mail sender role',
    scope: 'Microsoft.Communication/communicationServices',
  },
  // API Management: its telemetry only. It reads nothing from Key Vault.
  {
    principal: 'apim',
    role: ROLE_IDS.monitoringMetricsPublisher,
    label: 'Monitoring Metrics Publisher',
    scope: 'Microsoft.Insights/components',
  },
  // The operator: loading the back office, re-driving the poison queue, uploading the SIEX certificate and secrets,
  // reading backups to restore them.
  {
    principal: 'operator',
    role: ROLE_IDS.storageBlobDataReader,
    label: 'Storage Blob Data Reader',
    scope: 'Microsoft.Storage/storageAccounts',
  },
  {
    principal: 'operator',
    role: ROLE_IDS.storageTableDataContributor,
    label: 'Storage Table Data Contributor',
    scope: 'Microsoft.Storage/storageAccounts',
  },
  {
    principal: 'operator',
    role: ROLE_IDS.storageQueueDataContributor,
    label: 'Storage Queue Data Contributor',
    scope: 'Microsoft.Storage/storageAccounts/queueServices/queues',
  },
  {
    principal: 'operator',
    role: ROLE_IDS.keyVaultCertificatesOfficer,
    label: 'Key Vault Certificates Officer',
    scope: 'Microsoft.KeyVault/vaults',
  },
  {
    principal: 'operator',
    role: ROLE_IDS.keyVaultSecretsOfficer,
    label: 'Key Vault Secrets Officer',
    scope: 'Microsoft.KeyVault/vaults',
  },
];

/**
 * Resource types with resource logs, which must send them to the workspace through a diagnostic setting scoped to
 * them (the Azure Monitor "supported logs" reference lists their categories).
 */
export const LOGGED_TYPES = [
  'Microsoft.KeyVault/vaults',
  'Microsoft.Storage/storageAccounts/blobServices',
  'Microsoft.Storage/storageAccounts/queueServices',
  'Microsoft.Storage/storageAccounts/tableServices',
  'Microsoft.Web/sites',
  'Microsoft.ApiManagement/service',
  'Microsoft.Communication/communicationServices',
  'Microsoft.OperationalInsights/workspaces',
];

/** Every other resource type of the templates, with why it has no diagnostic setting. */
export const UNLOGGED_TYPES: Record<string, string> = {
  'Microsoft.Resources/resourceGroups': 'its operations are in the subscription activity log',
  'Microsoft.Storage/storageAccounts':
    'metrics only at account level; its logs are those of its blob, queue and table services',
  'Microsoft.Storage/storageAccounts/blobServices/containers': 'logged by its blob service',
  'Microsoft.Storage/storageAccounts/queueServices/queues': 'logged by its queue service',
  'Microsoft.Insights/components': 'workspace-based: its telemetry is stored in the Log Analytics workspace already',
  'Microsoft.Insights/diagnosticSettings': 'the diagnostic settings themselves',
  'Microsoft.Web/serverfarms': 'platform metrics only, in Azure Monitor without a setting',
  'Microsoft.Web/sites/config': 'configuration of the site, logged by the site',
  'Microsoft.Web/sites/basicPublishingCredentialsPolicies': 'configuration of the site',
  'Microsoft.Communication/emailServices': "no resource logs: e-mail sends are the Communication Service's logs",
  'Microsoft.Communication/emailServices/domains':
    "no resource logs: e-mail sends are the Communication Service's logs",
  'Microsoft.Communication/emailServices/domains/senderUsernames':
    "no resource logs: e-mail sends are the Communication Service's logs",
  'Microsoft.ManagedIdentity/userAssignedIdentities': "no resource logs: their sign-ins are in Entra ID's logs",
  'Microsoft.Authorization/roleAssignments': 'in the activity log',
  'Microsoft.Authorization/roleDefinitions': 'in the activity log',
  'Microsoft.Graph/applications': "an Entra ID object: its changes are in Entra ID's audit log",
  'Microsoft.Graph/servicePrincipals': "an Entra ID object: its changes and sign-ins are in Entra ID's logs",
  'Microsoft.ApiManagement/service/namedValues': 'configuration of the API Management service, logged by the service',
  'Microsoft.ApiManagement/service/policies': 'configuration of the API Management service, logged by the service',
  'Microsoft.ApiManagement/service/apis': 'configuration of the API Management service, logged by the service',
  'Microsoft.ApiManagement/service/apis/policies': 'configuration of the API Management service, logged by the service',
  'Microsoft.ApiManagement/service/products': 'configuration of the API Management service, logged by the service',
  'Microsoft.ApiManagement/service/products/apis': 'configuration of the API Management service, logged by the service',
  'Microsoft.ApiManagement/service/products/groups':
    'configuration of the API Management service, logged by the service',
  'Microsoft.ApiManagement/service/loggers': 'where the service logs to',
  'Microsoft.ApiManagement/service/diagnostics': 'what the service logs',
  'Microsoft.ApiManagement/service/portalsettings':
    'configuration of the API Management service, logged by the service',
  'Microsoft.ApiManagement/service/subscriptions': 'configuration of the API Management service, logged by the service',
  'Microsoft.Authorization/locks': 'in the activity log (exported to the workspace by main.bicep)',
  'Microsoft.Insights/actionGroups': 'its notifications are in the activity log',
  'Microsoft.Insights/scheduledQueryRules': 'its firings are in the activity log and Azure Monitor alerts',
  'Microsoft.Insights/webtests': 'its results are telemetry of the component (AppAvailabilityResults)',
  'Microsoft.Insights/workbooks': 'a view over the workspace: nothing of its own to log',
  'Microsoft.Insights/activityLogAlerts': 'its firings are in the activity log and Azure Monitor alerts',
  'Microsoft.Consumption/budgets': 'no resource logs: its notifications are e-mails and the action group',
  'Microsoft.Graph/appRoleAssignedTo': "an Entra ID object: its changes are in Entra ID's audit log",
  'Microsoft.ApiManagement/service/apis/operations':
    'configuration of the API Management service, logged by the service',
  'Microsoft.Storage/storageAccounts/managementPolicies':
    'configuration of the account: what it moves and deletes shows in the blob service logs',
  // The private data plane's edges (network.bicep): what crosses them is logged by the services it reaches.
  'Microsoft.Network/networkSecurityGroups':
    "its rule events say which rule matched, not who called; flow logs (Network Watcher, billed per GB) are the operators' choice",
  'Microsoft.Network/natGateways': 'no resource logs: metrics only',
  'Microsoft.Network/publicIPAddresses': 'DDoS notifications only, and this address takes no inbound traffic',
  // The private data plane (network.bicep): the calls that cross it are logged by the services they reach.
  'Microsoft.Network/virtualNetworks':
    'its only log category is VM protection alerts (no virtual machines here); the traffic is logged by storage and Key Vault',
  'Microsoft.Network/privateEndpoints': 'metrics only; the calls through it are logged by the service it reaches',
  'Microsoft.Network/privateEndpoints/privateDnsZoneGroups': 'configuration of its private endpoint',
  'Microsoft.Network/privateDnsZones': 'no resource logs: its record changes are in the activity log',
  'Microsoft.Network/privateDnsZones/virtualNetworkLinks': 'configuration of its zone, in the activity log',
};
