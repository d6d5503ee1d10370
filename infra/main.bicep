// siex-gateway: everything the service needs in one subscription-scoped deployment (azd up, or
// az deployment sub create with main.dev.parameters.json / main.prod.parameters.json). See docs/operations.md "Deploy".
//
// Checked offline by test/infra (the Bicep CLI cannot be installed here): syntax with tree-sitter-bicep, module
// paths and parameters, loaded files, resource types, API versions and properties, parameter files (production on a
// tier with an SLA, zone-redundant), @secure() parameters, the app
// settings against shared/config/settings.ts, roles and their scopes, local authentication, diagnostic settings, the
// backend's authentication, the API Management policies and the OpenAPI document.

targetScope = 'subscription'

@description('Name of the environment (azd environment name); seeds every resource name.')
@minLength(1)
@maxLength(64)
param environmentName string

@description('Azure region of the regional resources (must offer Flex Consumption).')
@minLength(1)
param location string

@description('''The API Management product of this environment: api-service-siex-dev (development) or
api-service-siex (production). Named after the service followed by "Product", as the interface specification
requires of the variable that holds the product identifier; it also selects the production-only settings.''')
@allowed([
  'api-service-siex-dev'
  'api-service-siex'
])
param apiServiceSiexProduct string

@description('''The deployment's profile: standard (development or production, as apiServiceSiexProduct says) or sandbox, a
hosted sandbox for ERP developers (docs/sandbox.md): the development environment with API Management Consumption, the SIEX
simulator as a second function app in place of SIEX (siexSimulator.bicep), no WORM on the backups, no locks, no private
network, no zone redundancy. Production refuses it. azd: SIEX_GATEWAY_PROFILE.''')
@allowed([
  'standard'
  'sandbox'
])
param profile string = 'standard'

@description('''API Management tier: Consumption for development (pay per call, created in minutes, no developer portal,
no gateway logs in Log Analytics); BasicV2 for production (an SLA, the developer portal, gateway logs; StandardV2 adds
what this gateway does not use, outbound virtual network integration). docs/operations.md "Deploy" says why.''')
@allowed([
  'Consumption'
  'BasicV2'
  'StandardV2'
])
param apimSku string = apiServiceSiexProduct == 'api-service-siex' ? 'BasicV2' : 'Consumption'

@description('''Zone redundancy where the services offer it: the Flex Consumption plan (then at least two instances stay
ready per function group, billed as always-ready) and zone-redundant storage. The region must support both
(docs/operations.md "Deploy"). API Management's v2 and Consumption tiers have no availability zones.''')
param zoneRedundant bool = apiServiceSiexProduct == 'api-service-siex'

@description('''CanNotDelete locks on the data storage account, the backup account, the Key Vault and API Management, so that
`azd down`, a deleted resource group or a slip in the portal cannot take the farms' legal records, their backups, the SIEX
credentials or the clients' subscriptions with it. On in production; an operator who really means to delete removes the
locks first (docs/operations.md, "Locks"). azd: LOCK_RESOURCES.''')
param lockResources bool = apiServiceSiexProduct == 'api-service-siex'

@description('''The private data plane: Flex VNet integration, private endpoints (and privatelink DNS zones) for the tables,
queues and blobs the app uses and for Key Vault, public access off on the data and host storage accounts, Key Vault
closed but to operatorIpRanges. On in production; off elsewhere, where developers reach the accounts from their machines.
docs/architecture.md, "Private data plane". azd: VNET_ENABLED (unset: the environment's default).''')
param vnetEnabled bool = apiServiceSiexProduct == 'api-service-siex'

@description('''Public addresses (CIDR, comma-separated) from which operators upload the SIEX certificate and credentials to
a closed Key Vault (vnetEnabled). Empty: the vault has no public endpoint, and the runbook opens one for the task
(docs/operations.md, "The operator's path"). azd: OPERATOR_IP_RANGES. A string, because azd passes an unset
variable as text, never as an array.''')
param operatorIpRanges string = ''

@description('''The backups' immutability policy (backup.bicep): Disabled, Unlocked or Locked; empty for the environment's
default, Unlocked in production (a policy is created Unlocked) and Disabled elsewhere (so that `azd down` can delete a
development environment). Production sets Locked after its first deployment, for good: `azd env set BACKUP_IMMUTABILITY
Locked` (main.prod.parameters.json says Locked), and every later provision keeps it; Azure refuses to unlock it.''')
@allowed([
  ''
  'Disabled'
  'Unlocked'
  'Locked'
])
param backupImmutability string = ''

@description('''Existing privatelink DNS zones for the private endpoints, by group (blob, queue, table, vault), e.g. a hub
network's: their resource ids. A group not named gets a zone of its own (network.bicep).''')
param privateDnsZoneIds object = {}

@description('The resource group\'s monthly budget (billing currency); the operators are e-mailed at 80 % spent and 100 % forecast. 0: none.')
@minValue(0)
param monthlyBudget int = apiServiceSiexProduct == 'api-service-siex' ? 1200 : 50

@description('''How many data accounts hold the farms' records (issue 37 item 2; docs/capacity.md, section 5). The
first is the data account there always was (jobs, clients, catalogues and the queues stay in it); farms spread over all
of them by a recorded hash of their REA, so an account added later moves no farm. Only ever raised: removing an account
is not supported (the farms recorded in it would be unreachable; its lock and its legal records stay). Every account
gets the first's settings, lock, private endpoint, diagnostics and the app's table role, which the nightly backup reads
it with. At most 8: one account carries ~40x the national peak (docs/capacity.md), so more buys nothing but endpoints,
locks and role assignments to review. azd: DATA_ACCOUNT_COUNT.''')
@minValue(1)
@maxValue(8)
param dataAccountCount int = 1

@description('''What the data account's queue service logs: allLogs (every call, the export trigger's polls of an empty queue
included) or audit (writes and deletes only). docs/operations.md, "The export queue's polling, and what it costs".''')
@allowed([
  'allLogs'
  'audit'
])
param queueLogs string = 'allLogs'

@description('''The availability test's API Management key (apim.bicep): a new one at every provision, by default; never set
in a parameter file.''')
@secure()
param availabilityKey string = newGuid()

@description('Where alerts are e-mailed (the operators\' on-call address). Required in production.')
param alertEmail string = ''

@description('E-mail address of the API publisher (API Management system notifications).')
@minLength(3)
param apimPublisherEmail string

@description('Name of the API publisher, shown in the developer portal.')
param apimPublisherName string = 'SIEX gateway operations'

@description('''Object id of the operator running the deployment (azd sets AZURE_PRINCIPAL_ID): outside production, gets the
data roles to load the back office and upload the SIEX certificate. Empty for none. Production grants nobody standing data
or secret roles: an operator takes one for the task at hand (docs/operations.md, "Roles for a task in production").''')
param principalId string = ''

@description('Kind of principal principalId is: User for a person, ServicePrincipal for CI.')
@allowed([
  'User'
  'ServicePrincipal'
  'Group'
])
param principalType string = 'User'

@description('Resource group name; empty for rg-<environmentName>.')
param resourceGroupName string = ''

@description('Where Communication Services keeps e-mail data at rest.')
param emailDataLocation string = 'Europe'

@description('Base URL of SIEX\'s IUWS web service (FEGA); empty until it is known, and exports then fail saying so.')
param siexBaseUrl string = ''

@description('Upper bound of function instances.')
@minValue(40)
@maxValue(1000)
param functionMaximumInstanceCount int = 100

@description('''Export messages each instance works on at once (the queue trigger's batch size, newBatchThreshold 0): each
runs one job, whose SIEX calls are sequential, so instances × batch is the most calls SIEX can receive at once.''')
@minValue(1)
@maxValue(32)
param exportBatchSize int = 1

@description('''The most concurrent calls SIEX may receive from this gateway (FEGA publishes no figure: ask before raising it).
The deployment fails when functionMaximumInstanceCount × exportBatchSize exceeds it.''')
@minValue(1)
param siexMaxConcurrentCalls int = 100

@description('Memory of each function instance.')
@allowed([
  512
  2048
  4096
])
param functionInstanceMemoryMB int = 2048

@description('HTTP requests each function instance works on at once: the platform scales out at it, and the app sheds past it with 503 OVERLOADED (shared/http/admission.ts; docs/capacity.md section 11).')
@minValue(1)
@maxValue(1000)
param functionHttpConcurrency int = 16

var isProduction = apiServiceSiexProduct == 'api-service-siex'
var isSandbox = profile == 'sandbox'
// Production has no Consumption-tier API Management (no SLA, no gateway logs) and no alerts nobody receives: the
// deployment stops before it creates anything.
var checkedApimSku = isProduction && apimSku == 'Consumption'
  ? fail('Production needs API Management BasicV2 or StandardV2 (apimSku): Consumption has no SLA and no gateway logs.')
  : apimSku
var checkedAlertEmail = isProduction && empty(alertEmail)
  ? fail('Production needs alertEmail: the address the alerts go to.')
  : alertEmail
// The backups' immutability: production never without it (the legal records' copies could then be deleted).
var backupImmutabilityState = empty(backupImmutability) ? (isProduction ? 'Unlocked' : 'Disabled') : backupImmutability
var checkedBackupImmutability = isProduction && backupImmutabilityState == 'Disabled'
  ? fail('Production backups need immutability: backupImmutability Unlocked (first deployment) or Locked.')
  : backupImmutabilityState
// The sandbox profile: never production (a simulator in place of SIEX, backups that can be deleted), and never with a
// setting that contradicts it (an SLA tier, zones, locks, the private network, WORM, a real SIEX address): the
// deployment stops before it creates anything rather than build half a sandbox. Tagged on every resource.
var checkedProfile = isSandbox && isProduction
  ? fail('The sandbox profile is not for production (apiServiceSiexProduct api-service-siex): it puts a simulator in place of SIEX.')
  : isSandbox && (apimSku != 'Consumption' || zoneRedundant || lockResources || vnetEnabled || backupImmutabilityState != 'Disabled' || !empty(siexBaseUrl))
      ? fail('The sandbox profile runs API Management Consumption, the SIEX simulator, no zones, locks, private network or WORM: unset APIM_SKU, SIEX_BASE_URL, LOCK_RESOURCES, VNET_ENABLED and BACKUP_IMMUTABILITY.')
      : profile
// The operators' addresses, from the comma-separated list azd passes.
var operatorRanges = filter(map(split(operatorIpRanges, ','), range => trim(range)), range => !empty(range))
// The deployer's standing data and secret roles: none in production, where a leaked workstation token must not read or
// change the farms' records or the SIEX secrets; operators take a role for a task and remove it after.
var standingOperatorId = isProduction ? '' : principalId
// The queue trigger's ceiling on concurrent SIEX calls: every instance the plan may run, each with its batch.
var checkedExportBatchSize = functionMaximumInstanceCount * exportBatchSize > siexMaxConcurrentCalls
  ? fail('functionMaximumInstanceCount × exportBatchSize exceeds siexMaxConcurrentCalls: SIEX would get more calls at once than agreed.')
  : exportBatchSize
var resourceToken = toLower(uniqueString(subscription().id, environmentName, location))
var tags = {
  'azd-env-name': environmentName
  service: 'siex-gateway'
  product: apiServiceSiexProduct
  profile: checkedProfile
}

// The export job queue and the webhook delivery queue (shared/store/queues.ts), each with its poison queue (host.json
// maxDequeueCount: after 5 tries a message moves there).
var exportQueueName = 'export-jobs'
var queueNames = [
  'export-jobs'
  'export-jobs-poison'
  'webhook-deliveries'
  'webhook-deliveries-poison'
]
var deploymentContainerName = 'app-package-${resourceToken}'
// The data accounts, in the order the app numbers them (STORAGE_ACCOUNTS). The first keeps the name the one data
// account always had, so raising dataAccountCount creates accounts beside it and moves nothing.
var dataAccountNames = [
  for i in range(0, dataAccountCount): i == 0 ? 'st${resourceToken}' : 'st${resourceToken}${i + 1}'
]
// Each account's table endpoint (the cloud's own storage suffix), the app setting's entries.
var dataTableEndpoints = map(dataAccountNames, account => 'https://${account}.table.${environment().suffixes.storage}')
var backupContainerName = 'table-backups'

resource rg 'Microsoft.Resources/resourceGroups@2025-04-01' = {
  name: empty(resourceGroupName) ? 'rg-${environmentName}' : resourceGroupName
  location: location
  tags: tags
}

// First, and needing nothing: every identity the deployment grants roles to exists before any resource it reaches.
module identities 'modules/identities.bicep' = {
  name: 'identities'
  scope: rg
  params: {
    functionIdentityName: 'id-func-${resourceToken}'
    apimIdentityName: 'id-apim-${resourceToken}'
    simulatorIdentityName: isSandbox ? 'id-siex-${resourceToken}' : ''
    location: location
    tags: tags
  }
}

module monitoring 'modules/monitoring.bicep' = {
  name: 'monitoring'
  scope: rg
  params: {
    logAnalyticsName: 'log-${resourceToken}'
    applicationInsightsName: 'appi-${resourceToken}'
    location: location
    tags: tags
    // Production keeps a year: the audit trail (who read or changed which secret or record) outlives a campaign.
    retentionInDays: isProduction ? 365 : 30
  }
}

// Every data account from the one declaration, so none can differ from the first in replication, TLS, shared keys,
// network, diagnostics, operator role or lock: only the name, and the queues, which stay in the first (the host's queue
// trigger reads AzureWebJobsStorage__accountName).
module storage 'modules/storage.bicep' = [
  for (accountName, i) in dataAccountNames: {
    name: i == 0 ? 'storage' : 'storage-${i + 1}'
    scope: rg
    params: {
      name: accountName
      location: location
      tags: tags
      skuName: zoneRedundant ? 'Standard_ZRS' : 'Standard_LRS'
      queueNames: i == 0 ? queueNames : []
      logAnalyticsWorkspaceId: monitoring.outputs.logAnalyticsWorkspaceId
      operatorPrincipalId: standingOperatorId
      operatorPrincipalType: principalType
      lock: lockResources
      privateOnly: vnetEnabled
      queueLogs: queueLogs
    }
  }
]

module hostStorage 'modules/hostStorage.bicep' = {
  name: 'hostStorage'
  scope: rg
  params: {
    name: 'sth${resourceToken}'
    location: location
    tags: tags
    skuName: zoneRedundant ? 'Standard_ZRS' : 'Standard_LRS'
    deploymentContainerName: deploymentContainerName
    hostPrincipalId: identities.outputs.functionPrincipalId
    logAnalyticsWorkspaceId: monitoring.outputs.logAnalyticsWorkspaceId
    privateOnly: vnetEnabled
  }
}

module backup 'modules/backup.bicep' = {
  name: 'backup'
  scope: rg
  params: {
    name: 'stbk${resourceToken}'
    location: location
    tags: tags
    // A copy in the paired region in production: a region lost does not take the backups with it.
    skuName: isProduction ? (zoneRedundant ? 'Standard_GZRS' : 'Standard_GRS') : 'Standard_LRS'
    containerName: backupContainerName
    immutability: checkedBackupImmutability
    writerPrincipalId: identities.outputs.functionPrincipalId
    operatorPrincipalId: standingOperatorId
    operatorPrincipalType: principalType
    logAnalyticsWorkspaceId: monitoring.outputs.logAnalyticsWorkspaceId
    privateOnly: vnetEnabled
    lock: lockResources
  }
}

module keyVault 'modules/keyVault.bicep' = {
  name: 'keyVault'
  scope: rg
  params: {
    name: 'kv-${resourceToken}'
    location: location
    tags: tags
    enablePurgeProtection: isProduction
    lock: lockResources
    restrictNetwork: vnetEnabled
    operatorIpRanges: operatorRanges
    logAnalyticsWorkspaceId: monitoring.outputs.logAnalyticsWorkspaceId
    operatorPrincipalId: standingOperatorId
    operatorPrincipalType: principalType
  }
}

// Its own deployment, finished before communication assigns it (a role defined and assigned in one deployment can fail).
module emailSenderRole 'modules/emailSenderRole.bicep' = {
  name: 'emailSenderRole'
  scope: rg
}

module network 'modules/network.bicep' = if (vnetEnabled) {
  name: 'network'
  scope: rg
  params: {
    name: 'vnet-${resourceToken}'
    location: location
    tags: tags
    // Every data account's name from its module, so the endpoints wait for the accounts.
    dataAccountNames: [for i in range(0, dataAccountCount): storage[i].outputs.name]
    hostAccountName: hostStorage.outputs.name
    backupAccountName: backup.outputs.name
    keyVaultName: keyVault.outputs.name
    privateDnsZoneIds: privateDnsZoneIds
  }
}

module communication 'modules/communication.bicep' = {
  name: 'communication'
  scope: rg
  params: {
    communicationServiceName: 'acs-${resourceToken}'
    emailServiceName: 'ecs-${resourceToken}'
    tags: tags
    dataLocation: emailDataLocation
    senderPrincipalId: identities.outputs.functionPrincipalId
    senderRoleDefinitionId: emailSenderRole.outputs.roleDefinitionId
    logAnalyticsWorkspaceId: monitoring.outputs.logAnalyticsWorkspaceId
  }
}

// The sandbox's SIEX (siexSimulator.bicep): the simulator as a function app with a host account of its own. The gateway's
// SIEX_BASE_URL points at it and its siex-username / siex-password secrets are the simulator's (the postprovision step
// writes them: local/sandbox-setup.ts).
var simulatorUsername = 'siex-sandbox'

module siexSimulator 'modules/siexSimulator.bicep' = if (isSandbox) {
  name: 'siexSimulator'
  scope: rg
  params: {
    name: 'func-siex-${resourceToken}'
    planName: 'plan-siex-${resourceToken}'
    location: location
    tags: tags
    hostStorageAccountName: 'stsx${resourceToken}'
    deploymentContainerName: 'siex-package-${resourceToken}'
    logAnalyticsWorkspaceId: monitoring.outputs.logAnalyticsWorkspaceId
    keyVaultName: keyVault.outputs.name
    identityId: identities.outputs.simulatorIdentityId
    identityClientId: identities.outputs.simulatorClientId
    identityPrincipalId: identities.outputs.simulatorPrincipalId
    username: simulatorUsername
  }
}

// The Entra ID application that stands for the function app in the tokens API Management presents to it.
module apiRegistration 'modules/apiRegistration.bicep' = {
  name: 'apiRegistration'
  scope: rg
  params: {
    uniqueName: 'siex-gateway-api-${resourceToken}'
    displayName: 'SIEX gateway API (${environmentName})'
    apimPrincipalId: identities.outputs.apimPrincipalId
  }
}

module functionApp 'modules/functionApp.bicep' = {
  name: 'functionApp'
  scope: rg
  params: {
    name: 'func-${resourceToken}'
    planName: 'plan-${resourceToken}'
    location: location
    tags: tags
    zoneRedundant: zoneRedundant
    storageAccountName: storage[0].outputs.name
    // The app's table role on every data account: the records it keeps there and the nightly backup's reads of them.
    tableAccountNames: [for i in range(0, dataAccountCount): storage[i].outputs.name]
    queueNames: queueNames
    hostStorageAccountName: hostStorage.outputs.name
    deploymentContainerName: deploymentContainerName
    applicationInsightsName: monitoring.outputs.applicationInsightsName
    logAnalyticsWorkspaceId: monitoring.outputs.logAnalyticsWorkspaceId
    keyVaultName: keyVault.outputs.name
    identityId: identities.outputs.functionIdentityId
    identityClientId: identities.outputs.functionClientId
    identityPrincipalId: identities.outputs.functionPrincipalId
    apiClientId: apiRegistration.outputs.clientId
    apimClientId: identities.outputs.apimClientId
    apimPrincipalId: identities.outputs.apimPrincipalId
    virtualNetworkSubnetId: vnetEnabled ? network.outputs.appSubnetId : ''
    maximumInstanceCount: functionMaximumInstanceCount
    exportBatchSize: checkedExportBatchSize
    instanceMemoryMB: functionInstanceMemoryMB
    httpPerInstanceConcurrency: functionHttpConcurrency
    // Every setting the code reads (shared/config/settings.ts), and nothing else: test/infra compares the two.
    // Still to come with the code that reads it, e.g.: EXPORT_QUEUE_NAME: exportQueueName
    appSettings: {
      AzureWebJobsStorage__accountName: storage[0].outputs.name
      // The data accounts the farms' records spread over, the first the account above (issue 37 item 2).
      STORAGE_ACCOUNTS: join(dataTableEndpoints, ',')
      AUTH_MODE: 'apim'
      // The identity App Service authentication admits: the app believes API Management's headers only from it.
      APIM_PRINCIPAL_ID: identities.outputs.apimPrincipalId
      RATE_LIMIT_PER_MINUTE: '100'
      MAX_BODY_BYTES: '1048576'
      // The same number the platform scales out at (httpPerInstanceConcurrency above): one figure, two guards.
      MAX_CONCURRENT_REQUESTS: '${functionHttpConcurrency}'
      ADMISSION_WAIT_MS: '2000'
      MAX_BACKDATE_DAYS: '7'
      REFERENCE_CACHE_SECONDS: '60'
      // SIEX (IUWS): the address is a parameter; the credentials and the client certificate are vault secrets the
      // operator uploads (docs/operations.md "SIEX certificate and secrets"). Until they are there, the platform leaves the
      // reference text in the setting and exports fail saying which secret is missing.
      SIEX_BASE_URL: isSandbox ? 'https://${siexSimulator.outputs.defaultHostName}' : siexBaseUrl
      SIEX_USERNAME: '@Microsoft.KeyVault(VaultName=${keyVault.outputs.name};SecretName=siex-username)'
      SIEX_PASSWORD: '@Microsoft.KeyVault(VaultName=${keyVault.outputs.name};SecretName=siex-password)'
      // The sandbox's simulator asks for no client certificate.
      SIEX_CLIENT_CERT: isSandbox ? '' : '@Microsoft.KeyVault(VaultName=${keyVault.outputs.name};SecretName=siex-client-cert)'
      SIEX_TIMEOUT_MS: '10000'
      SIEX_MAX_ATTEMPTS: '4'
      SIEX_RETRY_BASE_MS: '500'
      // E-mail through Communication Services with the app's managed identity; no access key in Azure.
      EMAIL_CONNECTION_STRING: ''
      EMAIL_ENDPOINT: communication.outputs.endpoint
      EMAIL_SENDER: communication.outputs.senderAddress
      // Clients' webhook signing secrets are derived from this vault secret (shared/notify/webhook-secret.ts), which the
      // operator creates (docs/operations.md "Webhook signing key"); until it is there, no webhook is sent.
      WEBHOOK_SIGNING_KEY: '@Microsoft.KeyVault(VaultName=${keyVault.outputs.name};SecretName=webhook-signing-key)'
      // The nightly table backup goes to its own immutable account, reached with the app's identity.
      BACKUP_STORAGE: ''
      // The account's own endpoint (environment().suffixes of whatever cloud this is), not a domain written here.
      BACKUP_BLOB_ENDPOINT: backup.outputs.blobEndpoint
      BACKUP_CONTAINER: backupContainerName
    }
  }
}

module apim 'modules/apim.bicep' = {
  name: 'apim'
  scope: rg
  params: {
    name: 'apim-${resourceToken}'
    location: location
    tags: tags
    sku: checkedApimSku
    publisherEmail: apimPublisherEmail
    publisherName: apimPublisherName
    apiServiceSiexProduct: apiServiceSiexProduct
    functionAppHostName: functionApp.outputs.defaultHostName
    identityId: identities.outputs.apimIdentityId
    identityClientId: identities.outputs.apimClientId
    identityPrincipalId: identities.outputs.apimPrincipalId
    apiClientId: apiRegistration.outputs.clientId
    applicationInsightsName: monitoring.outputs.applicationInsightsName
    logAnalyticsWorkspaceId: monitoring.outputs.logAnalyticsWorkspaceId
    monitorKey: availabilityKey
    lock: lockResources
  }
}

module alerts 'modules/alerts.bicep' = {
  name: 'alerts'
  scope: rg
  params: {
    location: location
    tags: tags
    namePrefix: 'siex-${resourceToken}'
    logAnalyticsWorkspaceId: monitoring.outputs.logAnalyticsWorkspaceId
    applicationInsightsName: monitoring.outputs.applicationInsightsName
    apimName: apim.outputs.name
    monitoringSubscriptionName: apim.outputs.monitoringSubscriptionName
    healthPath: apim.outputs.healthPath
    backupAccountId: backup.outputs.id
    monthlyBudget: monthlyBudget
    alertEmail: checkedAlertEmail
  }
}

// The subscription's activity log (who created, changed or deleted which resource, lock or role assignment) kept with
// the rest, for as long as the workspace keeps logs: by default Azure keeps it 90 days only. A subscription's setting,
// not the resource group's: `azd down` leaves it, and the postdown hook deletes it (local/deploy-checks.ts teardown).
resource activityLog 'Microsoft.Insights/diagnosticSettings@2021-05-01-preview' = {
  name: 'activity-to-log-analytics-${resourceToken}'
  properties: {
    workspaceId: monitoring.outputs.logAnalyticsWorkspaceId
    logs: [
      {
        category: 'Administrative'
        enabled: true
      }
      {
        category: 'Security'
        enabled: true
      }
      {
        category: 'Policy'
        enabled: true
      }
      {
        category: 'Alert'
        enabled: true
      }
    ]
  }
}

// Read by azd into the environment (.azure/<env>/.env) and by the operator (docs/operations.md "Deploy").
output AZURE_LOCATION string = location
output AZURE_TENANT_ID string = tenant().tenantId
output AZURE_RESOURCE_GROUP string = rg.name
output AZURE_FUNCTION_APP_NAME string = functionApp.outputs.name
// The azd deployment hooks (local/deploy-checks.ts): whose roles to wait for, and which host must answer 401.
output AZURE_FUNCTION_PRINCIPAL_ID string = identities.outputs.functionPrincipalId
output AZURE_FUNCTION_HOST_NAME string = functionApp.outputs.defaultHostName
output AZURE_STORAGE_ACCOUNT_NAME string = storage[0].outputs.name
// Every data account's table endpoint, as the app's STORAGE_ACCOUNTS has them (the admin CLI's import and restore).
output STORAGE_ACCOUNTS string = join(dataTableEndpoints, ',')
output AZURE_BACKUP_ACCOUNT_NAME string = backup.outputs.name
// The admin CLI's --backup-endpoint (docs/operations.md, "Backup and restore").
output AZURE_BACKUP_BLOB_ENDPOINT string = backup.outputs.blobEndpoint
output AZURE_KEY_VAULT_NAME string = keyVault.outputs.name
// The vault's own address (any cloud's): the sandbox's postprovision step writes its secrets there.
output AZURE_KEY_VAULT_URI string = keyVault.outputs.uri
output AZURE_APIM_NAME string = apim.outputs.name
output APIM_GATEWAY_URL string = apim.outputs.gatewayUrl
output API_SERVICE_SIEX_PRODUCT string = apim.outputs.productId
output EXPORT_QUEUE_NAME string = exportQueueName
output COMMUNICATION_SERVICES_ENDPOINT string = communication.outputs.endpoint
output EMAIL_SENDER_ADDRESS string = communication.outputs.senderAddress
// Not deleted by `azd down` (Entra ID objects and subscription-scope resources live outside resource groups): the
// postdown hook removes them (local/deploy-checks.ts teardown; docs/operations.md, "Tearing an environment down").
output AZURE_API_APP_CLIENT_ID string = apiRegistration.outputs.clientId
output AZURE_ACTIVITY_LOG_SETTING string = activityLog.name
output AZURE_EMAIL_SENDER_ROLE_ID string = emailSenderRole.outputs.roleDefinitionId
// The address SIEX sees the gateway's calls from (the NAT gateway of network.bicep): give it to FEGA. Empty without vnetEnabled.
output AZURE_SIEX_EGRESS_IP string = vnetEnabled ? network.outputs.egressIp : ''
output BACKUP_IMMUTABILITY string = checkedBackupImmutability
// Kept in azd's environment, so a later provision never lists fewer data accounts than the app has spread farms over.
output DATA_ACCOUNT_COUNT int = dataAccountCount
// The sandbox profile's hooks (local/sandbox-setup.ts): whether to load the data and write the simulator's credentials,
// and where the simulator is. Empty outside the sandbox.
output SIEX_GATEWAY_PROFILE string = checkedProfile
output AZURE_SIEX_SIMULATOR_APP_NAME string = isSandbox ? siexSimulator.outputs.name : ''
output AZURE_SIEX_SIMULATOR_URL string = isSandbox ? 'https://${siexSimulator.outputs.defaultHostName}' : ''
output SIEX_SIMULATOR_USERNAME string = isSandbox ? simulatorUsername : ''
