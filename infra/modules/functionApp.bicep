// The gateway's Function App on a Flex Consumption plan (Linux, Node 22), with a system-assigned identity that
// reaches storage, Key Vault and Communication Services through role assignments: no connection strings, no keys.
//
// App settings: `appSettings` carries the settings the code reads (shared/config/settings.ts, checked by
// test/infra); `hostAppSettings` below carries the few the Functions host itself reads. Flex Consumption rejects
// or ignores FUNCTIONS_WORKER_RUNTIME, FUNCTIONS_EXTENSION_VERSION, WEBSITE_RUN_FROM_PACKAGE and the content-share
// settings: the runtime and the package location live in functionAppConfig instead.

@description('Function app name.')
param name string

@description('Flex Consumption plan name (one app per plan).')
param planName string

@description('Azure region.')
param location string

@description('Tags applied to every resource.')
param tags object

@description('Storage account used for AzureWebJobsStorage, the app data and the deployment package.')
param storageAccountName string

@description('Blob container of the deployment package.')
param deploymentContainerName string

@description('Application Insights component the host reports to.')
param applicationInsightsName string

@description('Key Vault whose secrets the app reads (SIEX certificate and credentials).')
param keyVaultName string

@description('Communication Service the app sends e-mail through.')
param communicationServiceName string

@description('App settings the code reads, name to string value (shared/config/settings.ts).')
param appSettings object

@description('Upper bound of instances the plan scales to.')
@minValue(40)
@maxValue(1000)
param maximumInstanceCount int = 100

@description('Memory of each instance.')
@allowed([
  512
  2048
  4096
])
param instanceMemoryMB int = 2048

var roles = {
  blobDataOwner: 'b7e6dc6d-f1e8-4753-8033-0f276bb0955b'
  queueDataContributor: '974c5e8b-45b9-4653-ba55-5f855dd0fb88'
  tableDataContributor: '0a9a7e1f-b9d0-4cc4-a60d-0319b160aaa3'
  keyVaultSecretsUser: '4633458b-17de-408a-b874-0445c86b69e6'
  communicationAndEmailServiceOwner: '09976791-48a7-449e-bb21-39d1a415f350'
}

resource storage 'Microsoft.Storage/storageAccounts@2023-05-01' existing = {
  name: storageAccountName
}

resource appInsights 'Microsoft.Insights/components@2020-02-02' existing = {
  name: applicationInsightsName
}

resource vault 'Microsoft.KeyVault/vaults@2023-07-01' existing = {
  name: keyVaultName
}

resource communicationService 'Microsoft.Communication/communicationServices@2023-04-01' existing = {
  name: communicationServiceName
}

// Settings owned by the Functions host, not by the code (allow-listed in test/infra/settings-allowlist.json).
var hostAppSettings = {
  APPLICATIONINSIGHTS_CONNECTION_STRING: appInsights.properties.ConnectionString
  AzureWebJobsStorage__credential: 'managedidentity'
}

resource plan 'Microsoft.Web/serverfarms@2024-04-01' = {
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
  }
}

resource site 'Microsoft.Web/sites@2024-04-01' = {
  name: name
  location: location
  // azd finds the deployment target of service `api` (azure.yaml) by this tag.
  tags: union(tags, {
    'azd-service-name': 'api'
  })
  kind: 'functionapp,linux'
  identity: {
    type: 'SystemAssigned'
  }
  properties: {
    serverFarmId: plan.id
    httpsOnly: true
    siteConfig: {
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
          value: '${storage.properties.primaryEndpoints.blob}${deploymentContainerName}'
          authentication: {
            type: 'SystemAssignedIdentity'
          }
        }
      }
      scaleAndConcurrency: {
        maximumInstanceCount: maximumInstanceCount
        instanceMemoryMB: instanceMemoryMB
      }
      runtime: {
        name: 'node'
        version: '22'
      }
    }
  }
}

// Host storage (keys, locks, deployment package) needs blob; the export queue trigger needs queue; the app's data
// lives in tables.
resource blobOwner 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(storage.id, site.id, roles.blobDataOwner)
  scope: storage
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.blobDataOwner)
    principalId: site.identity.principalId
    principalType: 'ServicePrincipal'
  }
}

resource queueContributor 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(storage.id, site.id, roles.queueDataContributor)
  scope: storage
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.queueDataContributor)
    principalId: site.identity.principalId
    principalType: 'ServicePrincipal'
  }
}

resource tableContributor 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(storage.id, site.id, roles.tableDataContributor)
  scope: storage
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.tableDataContributor)
    principalId: site.identity.principalId
    principalType: 'ServicePrincipal'
  }
}

resource secretsUser 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(vault.id, site.id, roles.keyVaultSecretsUser)
  scope: vault
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.keyVaultSecretsUser)
    principalId: site.identity.principalId
    principalType: 'ServicePrincipal'
  }
}

resource emailSender 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(communicationService.id, site.id, roles.communicationAndEmailServiceOwner)
  scope: communicationService
  properties: {
    roleDefinitionId: subscriptionResourceId(
      'Microsoft.Authorization/roleDefinitions',
      roles.communicationAndEmailServiceOwner
    )
    principalId: site.identity.principalId
    principalType: 'ServicePrincipal'
  }
}

output name string = site.name
output id string = site.id
output defaultHostName string = site.properties.defaultHostName
output principalId string = site.identity.principalId
