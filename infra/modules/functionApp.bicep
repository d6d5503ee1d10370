// The gateway's Function App on a Flex Consumption plan (Linux, Node 22), running as a user-assigned identity
// (identities.bicep) that reaches storage, Key Vault, e-mail and telemetry through role assignments: no connection
// strings, no keys. The identity exists before the site, so its roles are granted in parallel with the site's creation
// and nothing waits for a system-assigned identity to appear.
//
// Only API Management gets in: App Service authentication (authsettingsV2 below) refuses, before any function runs,
// every request without an Entra ID token for the gateway's application (apiRegistration.bicep) issued to API
// Management's identity. The HTTP functions are therefore anonymous to the Functions host (shared/http/register.ts):
// there is no host key, so no listKeys and nothing for API Management to fetch from Key Vault.
//
// App settings: `appSettings` carries the settings the code reads (shared/config/settings.ts, checked by
// test/infra); `hostAppSettings` below carries the few the Functions host and the Azure SDK read. Flex Consumption
// rejects or ignores FUNCTIONS_WORKER_RUNTIME, FUNCTIONS_EXTENSION_VERSION, WEBSITE_RUN_FROM_PACKAGE and the
// content-share settings: the runtime and the package location live in functionAppConfig instead.

@description('Function app name.')
param name string

@description('Flex Consumption plan name (one app per plan).')
param planName string

@description('Azure region.')
param location string

@description('Tags applied to every resource.')
param tags object

@description('Spread the plan\'s instances across availability zones (the region must support it for Flex Consumption).')
param zoneRedundant bool

@description('The first data account (tables, the queues), the app\'s AzureWebJobsStorage__accountName.')
param storageAccountName string

@description('''Every data account (main.bicep dataAccountCount), the first first: the app's table role is granted on
each, for the farms' records it keeps there and the nightly backup's reads of them.''')
@minLength(1)
param tableAccountNames array

@description('The export and webhook queues of the data account: the app\'s queue role is granted on each, not on the account.')
param queueNames array

@description('The host\'s own account (hostStorage.bicep): its blobs and the deployment package.')
param hostStorageAccountName string

@description('Blob container of the deployment package, in the host account.')
param deploymentContainerName string

@description('Application Insights component the host reports to.')
param applicationInsightsName string

@description('Log Analytics workspace that receives the function app\'s logs.')
param logAnalyticsWorkspaceId string

@description('Key Vault whose secrets the app reads (SIEX certificate and credentials).')
param keyVaultName string

@description('Resource id of the function app\'s user-assigned identity.')
param identityId string

@description('Client id of the function app\'s identity (the host and the Azure SDK select the identity by it).')
param identityClientId string

@description('Principal id of the function app\'s identity, which the role assignments name.')
param identityPrincipalId string

@description('Client id of the gateway\'s Entra ID application: the audience of the tokens App Service authentication accepts.')
param apiClientId string

@description('Client id of API Management\'s identity: the only application App Service authentication admits.')
param apimClientId string

@description('Principal id of API Management\'s identity: the only principal App Service authentication admits.')
param apimPrincipalId string

@description('App settings the code reads, name to string value (shared/config/settings.ts).')
param appSettings object

@description('Subnet the app integrates with (network.bicep, delegated to Microsoft.App/environments); empty for none.')
param virtualNetworkSubnetId string = ''

@description('Upper bound of instances the plan scales to.')
@minValue(40)
@maxValue(1000)
param maximumInstanceCount int = 100

@description('Export messages each instance works on at once (main.bicep: instances × batch caps the calls to SIEX).')
@minValue(1)
param exportBatchSize int

@description('Memory of each instance.')
@allowed([
  512
  2048
  4096
])
param instanceMemoryMB int = 2048

@description('HTTP requests an instance works on at once before the platform sends the next ones to another instance.')
@minValue(1)
param httpPerInstanceConcurrency int

var roles = {
  queueDataContributor: '974c5e8b-45b9-4653-ba55-5f855dd0fb88'
  tableDataContributor: '0a9a7e1f-b9d0-4cc4-a60d-0319b160aaa3'
  keyVaultSecretsUser: '4633458b-17de-408a-b874-0445c86b69e6'
  monitoringMetricsPublisher: '3913510d-42f4-4e42-8a64-420c390055eb'
}

resource storage 'Microsoft.Storage/storageAccounts@2026-04-01' existing = {
  name: storageAccountName
}

resource queueService 'Microsoft.Storage/storageAccounts/queueServices@2026-04-01' existing = {
  parent: storage
  name: 'default'
}

resource queues 'Microsoft.Storage/storageAccounts/queueServices/queues@2026-04-01' existing = [
  for queueName in queueNames: {
    parent: queueService
    name: queueName
  }
]

resource tableAccounts 'Microsoft.Storage/storageAccounts@2026-04-01' existing = [
  for accountName in tableAccountNames: {
    name: accountName
  }
]

resource hostStorage 'Microsoft.Storage/storageAccounts@2026-04-01' existing = {
  name: hostStorageAccountName
}

resource appInsights 'Microsoft.Insights/components@2020-02-02' existing = {
  name: applicationInsightsName
}

resource vault 'Microsoft.KeyVault/vaults@2026-02-01' existing = {
  name: keyVaultName
}

// Settings owned by the Functions host and the Azure SDK, not by the code (allow-listed in
// test/infra/settings-allowlist.json). The host sends telemetry with the identity (Application Insights has local
// authentication off) and reaches its storage with it; DefaultAzureCredential in the code picks it by AZURE_CLIENT_ID.
var hostAppSettings = {
  APPLICATIONINSIGHTS_CONNECTION_STRING: appInsights.properties.ConnectionString
  APPLICATIONINSIGHTS_AUTHENTICATION_STRING: 'ClientId=${identityClientId};Authorization=AAD'
  // The host's blobs go to its own account; its queue trigger reads the data account's queues (accountName).
  AzureWebJobsStorage__blobServiceUri: hostStorage.properties.primaryEndpoints.blob
  AzureWebJobsStorage__credential: 'managedidentity'
  AzureWebJobsStorage__clientId: identityClientId
  AZURE_CLIENT_ID: identityClientId
  // host.json's queue settings, overridden here so the cap on concurrent SIEX calls is one deployment parameter: a
  // batch of exportBatchSize and no new batch before it is done (newBatchThreshold 0; by default the host takes the
  // next batch when half is done, running up to 1.5 batches at once). The webhook delivery function reads its queue
  // with the same batch: its tries are bounded (10 s) and capped per client across instances (slot-store.ts).
  AzureFunctionsJobHost__extensions__queues__batchSize: string(exportBatchSize)
  AzureFunctionsJobHost__extensions__queues__newBatchThreshold: '0'
}

resource plan 'Microsoft.Web/serverfarms@2025-03-01' = {
  name: planName
  location: location
  tags: tags
  kind: 'functionapp'
  sku: {
    name: 'FC1'
    tier: 'FlexConsumption'
  }
  properties: {
    reserved: true
    zoneRedundant: zoneRedundant
  }
}

resource site 'Microsoft.Web/sites@2025-03-01' = {
  name: name
  location: location
  // azd finds the deployment target of service `api` (azure.yaml) by this tag.
  tags: union(tags, {
    'azd-service-name': 'api'
  })
  kind: 'functionapp,linux'
  identity: {
    type: 'UserAssigned'
    userAssignedIdentities: {
      '${identityId}': {}
    }
  }
  properties: {
    serverFarmId: plan.id
    httpsOnly: true
    keyVaultReferenceIdentity: identityId
    // Flex routes all outbound traffic through the integration subnet, so storage, Key Vault (references included)
    // and the private DNS zones are reached privately.
    virtualNetworkSubnetId: empty(virtualNetworkSubnetId) ? null : virtualNetworkSubnetId
    siteConfig: {
      // FTP and FTPS do not exist on Flex Consumption (ftpsState is among its deprecated properties), so there is
      // nothing to switch off beyond the basic publishing credentials below.
      minTlsVersion: '1.2'
      scmMinTlsVersion: '1.2'
      appSettings: [
        for setting in items(union(appSettings, hostAppSettings)): {
          name: setting.key
          value: setting.value
        }
      ]
    }
    functionAppConfig: {
      deployment: {
        storage: {
          type: 'blobContainer'
          value: '${hostStorage.properties.primaryEndpoints.blob}${deploymentContainerName}'
          authentication: {
            type: 'UserAssignedIdentity'
            userAssignedIdentityResourceId: identityId
          }
        }
      }
      scaleAndConcurrency: {
        maximumInstanceCount: maximumInstanceCount
        instanceMemoryMB: instanceMemoryMB
        triggers: {
          http: {
            perInstanceConcurrency: httpPerInstanceConcurrency
          }
        }
      }
      runtime: {
        name: 'node'
        version: '22'
      }
    }
  }
}

// Deployments (azd deploy, func publish) authenticate with Entra ID; user name and password publishing is off.
resource scmBasicAuth 'Microsoft.Web/sites/basicPublishingCredentialsPolicies@2025-03-01' = {
  parent: site
  name: 'scm'
  properties: {
    allow: false
  }
}

// The site's child resources each write the site: in parallel, ARM answers 409 Conflict now and then and the first
// provision fails. Each waits for the one before it (scmBasicAuth, ftpBasicAuth, authentication, functionLogs).
resource ftpBasicAuth 'Microsoft.Web/sites/basicPublishingCredentialsPolicies@2025-03-01' = {
  parent: site
  name: 'ftp'
  dependsOn: [
    scmBasicAuth
  ]
  properties: {
    allow: false
  }
}

// App Service authentication: a request reaches the Functions host only with a valid v2 token of the tenant whose
// audience is the gateway's application and whose caller (appid/azp and oid) is API Management's identity; anything
// else is answered 401 (no token) or 403 (another caller) by the platform. No path is excluded, openapi included.
resource authentication 'Microsoft.Web/sites/config@2025-03-01' = {
  parent: site
  name: 'authsettingsV2'
  dependsOn: [
    ftpBasicAuth
  ]
  properties: {
    platform: {
      enabled: true
    }
    globalValidation: {
      requireAuthentication: true
      unauthenticatedClientAction: 'Return401'
    }
    httpSettings: {
      requireHttps: true
    }
    identityProviders: {
      azureActiveDirectory: {
        enabled: true
        registration: {
          clientId: apiClientId
          openIdIssuer: '${environment().authentication.loginEndpoint}${tenant().tenantId}/v2.0'
        }
        validation: {
          allowedAudiences: [
            apiClientId
          ]
          defaultAuthorizationPolicy: {
            allowedApplications: [
              apimClientId
            ]
            allowedPrincipals: {
              identities: [
                apimPrincipalId
              ]
            }
          }
        }
      }
    }
    login: {
      tokenStore: {
        enabled: false
      }
    }
  }
}

resource functionLogs 'Microsoft.Insights/diagnosticSettings@2021-05-01-preview' = {
  name: 'to-log-analytics'
  scope: site
  dependsOn: [
    authentication
  ]
  properties: {
    workspaceId: logAnalyticsWorkspaceId
    logs: [
      {
        categoryGroup: 'allLogs'
        enabled: true
      }
    ]
  }
}

// The queue triggers and the app's enqueues need the export and webhook queues, and only them; the app's data lives in
// tables. Granted to the identity, not to the site, so none of them waits for the site to exist. The host's blob role
// is on the host account (hostStorage.bicep).
resource queueContributor 'Microsoft.Authorization/roleAssignments@2022-04-01' = [
  for (queueName, i) in queueNames: {
    name: guid(queues[i].id, identityId, roles.queueDataContributor)
    scope: queues[i]
    properties: {
      roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.queueDataContributor)
      principalId: identityPrincipalId
      principalType: 'ServicePrincipal'
    }
  }
]

// On every data account. The first's assignment keeps the name it had when it was the only one (the same account id).
resource tableContributor 'Microsoft.Authorization/roleAssignments@2022-04-01' = [
  for (accountName, i) in tableAccountNames: {
    name: guid(tableAccounts[i].id, identityId, roles.tableDataContributor)
    scope: tableAccounts[i]
    properties: {
      roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.tableDataContributor)
      principalId: identityPrincipalId
      principalType: 'ServicePrincipal'
    }
  }
]

// The vault holds only what the app reads (the SIEX certificate and credentials), and the secrets do not exist yet
// when the templates run (the operator uploads them), so the role is at the vault, which is the same set.
resource secretsUser 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(vault.id, identityId, roles.keyVaultSecretsUser)
  scope: vault
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.keyVaultSecretsUser)
    principalId: identityPrincipalId
    principalType: 'ServicePrincipal'
  }
}

resource telemetryPublisher 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(appInsights.id, identityId, roles.monitoringMetricsPublisher)
  scope: appInsights
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.monitoringMetricsPublisher)
    principalId: identityPrincipalId
    principalType: 'ServicePrincipal'
  }
}

output name string = site.name
output defaultHostName string = site.properties.defaultHostName
