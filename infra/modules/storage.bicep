// The gateway's data account: tables (created by the app on first use) and the export and webhook queues. The Functions host's
// blobs and the deployment package live in an account of their own (hostStorage.bicep), so nothing here needs a blob
// role. Shared keys are off: every caller uses Entra ID.

@description('Storage account name (3-24 lowercase letters and digits).')
@minLength(3)
@maxLength(24)
param name string

@description('Azure region.')
param location string

@description('Tags applied to every resource.')
param tags object

@description('Replication: zone-redundant where the deployment is (main.bicep zoneRedundant).')
@allowed([
  'Standard_LRS'
  'Standard_ZRS'
])
param skuName string = 'Standard_LRS'

@description('Queues to create: the export queue, the webhook delivery queue, and their poison queues.')
param queueNames array

@description('Log Analytics workspace that receives the read, write and delete logs of blobs, queues and tables.')
param logAnalyticsWorkspaceId string

@description('Object id of the operator (user or CI principal) who loads the back office and inspects the queues; empty for none.')
param operatorPrincipalId string = ''

@description('Kind of principal operatorPrincipalId is.')
@allowed([
  'User'
  'ServicePrincipal'
  'Group'
])
param operatorPrincipalType string = 'User'

@description('No public endpoint: reached only through the private endpoints of network.bicep (main.bicep vnetEnabled).')
param privateOnly bool = false

@description('''What the queue service logs to the workspace: allLogs (every call, the trigger's polls of an empty queue among
them, the costliest line of the workspace's ingestion) or audit (writes and deletes: sends, deletions and the trigger's
dequeues, not its reads). docs/operations.md, "The export queue's polling, and what it costs".''')
@allowed([
  'allLogs'
  'audit'
])
param queueLogs string = 'allLogs'

@description('A CanNotDelete lock on the account: it holds the farms\' legal records (RD 1311/2012 art. 16: kept at least three years), so neither `azd down` nor a slip in the portal may delete it. Production.')
param lock bool = false

var roles = {
  tableDataContributor: '0a9a7e1f-b9d0-4cc4-a60d-0319b160aaa3'
  queueDataContributor: '974c5e8b-45b9-4653-ba55-5f855dd0fb88'
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

resource queueService 'Microsoft.Storage/storageAccounts/queueServices@2026-04-01' = {
  parent: account
  name: 'default'
}

resource queues 'Microsoft.Storage/storageAccounts/queueServices/queues@2026-04-01' = [
  for queueName in queueNames: {
    parent: queueService
    name: queueName
  }
]

resource tableService 'Microsoft.Storage/storageAccounts/tableServices@2026-04-01' = {
  parent: account
  name: 'default'
}

// The services' metrics go to the workspace too (AzureMetrics): the queues' QueueMessageCount is what the queue-depth
// alert and the workbook's queue tile read, and Transactions what throttling shows in.
var serviceMetrics = [
  {
    category: 'Capacity'
    enabled: true
  }
  {
    category: 'Transaction'
    enabled: true
  }
]

// Every data-plane call, with the identity that made it (no SAS and no shared key can be used: there is nothing else).
resource queueDiagnostics 'Microsoft.Insights/diagnosticSettings@2021-05-01-preview' = {
  name: 'to-log-analytics'
  scope: queueService
  properties: {
    workspaceId: logAnalyticsWorkspaceId
    logs: [
      {
        categoryGroup: queueLogs
        enabled: true
      }
    ]
    metrics: serviceMetrics
  }
}

resource tableDiagnostics 'Microsoft.Insights/diagnosticSettings@2021-05-01-preview' = {
  name: 'to-log-analytics'
  scope: tableService
  properties: {
    workspaceId: logAnalyticsWorkspaceId
    logs: [
      {
        categoryGroup: 'allLogs'
        enabled: true
      }
    ]
    metrics: serviceMetrics
  }
}

resource operatorTables 'Microsoft.Authorization/roleAssignments@2022-04-01' = if (!empty(operatorPrincipalId)) {
  name: guid(account.id, operatorPrincipalId, roles.tableDataContributor)
  scope: account
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.tableDataContributor)
    principalId: operatorPrincipalId
    principalType: operatorPrincipalType
    description: 'Back-office import (npm run admin -- import) from an operator workstation'
  }
}

// On the queues themselves, not the account: a queue role at the account would reach every queue created later.
resource operatorQueues 'Microsoft.Authorization/roleAssignments@2022-04-01' = [
  for (queueName, i) in queueNames: if (!empty(operatorPrincipalId)) {
    name: guid(queues[i].id, operatorPrincipalId, roles.queueDataContributor)
    scope: queues[i]
    properties: {
      roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.queueDataContributor)
      principalId: operatorPrincipalId
      principalType: operatorPrincipalType
      description: 'Inspect and re-drive the export poison queue'
    }
  }
]

// Deleting the account (or its resource group) fails while the lock is there; an operator removes it on purpose first.
resource deleteLock 'Microsoft.Authorization/locks@2020-05-01' = if (lock) {
  name: 'keep-legal-records'
  scope: account
  properties: {
    level: 'CanNotDelete'
    notes: 'Holds farms\' treatment records that must be kept for years (docs/operations.md, "Locks").'
  }
}

output name string = account.name
output id string = account.id
