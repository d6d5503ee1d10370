// The Functions host's own storage account, apart from the app's data (storage.bicep): the host's blobs (locks, timer
// schedules) and the blob container Flex Consumption deploys the app package from. The function identity's Blob Data
// Owner role sits here, so it holds no blob role on the account with the farms' records. The host reaches this account
// through AzureWebJobsStorage__blobServiceUri and the data account's queues through AzureWebJobsStorage__accountName.

@description('Host storage account name (3-24 lowercase letters and digits).')
@minLength(3)
@maxLength(24)
param name string

@description('Azure region.')
param location string

@description('Tags applied to every resource.')
param tags object

@description('Replication: zone-redundant where the deployment is.')
@allowed([
  'Standard_LRS'
  'Standard_ZRS'
])
param skuName string = 'Standard_LRS'

@description('Blob container that holds the Flex Consumption deployment package.')
param deploymentContainerName string

@description('Principal id of the function app\'s identity (the host writes its blobs and the package with it).')
param hostPrincipalId string

@description('Log Analytics workspace that receives the blob audit logs.')
param logAnalyticsWorkspaceId string

@description('Reachable only through private endpoints (main.bicep vnetEnabled).')
param privateOnly bool = false

var roles = {
  blobDataOwner: 'b7e6dc6d-f1e8-4753-8033-0f276bb0955b'
}

resource account 'Microsoft.Storage/storageAccounts@2026-04-01' = {
  name: name
  location: location
  tags: tags
  kind: 'StorageV2'
  sku: {
    name: skuName
  }
  properties: {
    accessTier: 'Hot'
    minimumTlsVersion: 'TLS1_2'
    supportsHttpsTrafficOnly: true
    allowBlobPublicAccess: false
    allowSharedKeyAccess: false
    defaultToOAuthAuthentication: true
    publicNetworkAccess: privateOnly ? 'Disabled' : 'Enabled'
    networkAcls: {
      defaultAction: privateOnly ? 'Deny' : 'Allow'
      bypass: privateOnly ? 'None' : 'AzureServices'
    }
  }
}

resource blobService 'Microsoft.Storage/storageAccounts/blobServices@2026-04-01' = {
  parent: account
  name: 'default'
}

resource deploymentContainer 'Microsoft.Storage/storageAccounts/blobServices/containers@2026-04-01' = {
  parent: blobService
  name: deploymentContainerName
  properties: {
    publicAccess: 'None'
  }
}

// Writes and deletes only: the host's own blob traffic is steady and of no audit interest ('allLogs' would bill it).
resource blobDiagnostics 'Microsoft.Insights/diagnosticSettings@2021-05-01-preview' = {
  name: 'to-log-analytics'
  scope: blobService
  properties: {
    workspaceId: logAnalyticsWorkspaceId
    logs: [
      {
        categoryGroup: 'audit'
        enabled: true
      }
    ]
  }
}

// Host storage (locks, timer schedules, the deployment package): the Functions host needs Blob Data Owner.
resource blobOwner 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(account.id, hostPrincipalId, roles.blobDataOwner)
  scope: account
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.blobDataOwner)
    principalId: hostPrincipalId
    principalType: 'ServicePrincipal'
  }
}

output name string = account.name
output id string = account.id
output blobEndpoint string = account.properties.primaryEndpoints.blob
