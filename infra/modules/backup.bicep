// The table backups' own storage account: versioned, geo-redundant, with an account-level time-based immutability
// policy, so a written backup can be neither changed nor deleted for the legal retention (RD 1311/2012: a farm keeps
// its treatment record for at least three years; one campaign more covers a record registered late in its campaign).
// Neither the function app nor anyone holding the data account's roles can take a backup away. docs/operations.md,
// "Backup and restore".
//
// The policy's state is a parameter (main.bicep backupImmutability), because Azure allows only these moves: a policy is
// created Disabled or Unlocked, may go between the two, and goes from Unlocked to Locked once and for ever; a Locked
// policy's retention can only grow ("AccountImmutabilityPolicyProperties.state", Azure Storage REST reference;
// "Version-level WORM policies", learn.microsoft.com/azure/storage/blobs/immutable-version-level-worm-policies).
// Production deploys Unlocked first and Locked from then on, and every later provision sends Locked again. Outside
// production there is no version-level immutability at all: an account with it enabled can only be deleted empty, and
// `azd down` must be able to delete a development environment.

@description('Backup storage account name (3-24 lowercase letters and digits).')
@minLength(3)
@maxLength(24)
param name string

@description('Azure region.')
param location string

@description('Tags applied to every resource.')
param tags object

@description('''Replication. Geo-redundant in production (GZRS where the region has zones, GRS elsewhere): a copy of every
backup in the paired region, where immutability holds as well (all redundancy options support it: "Store business-critical
blob data with immutable storage"). LRS only outside production.''')
@allowed([
  'Standard_LRS'
  'Standard_GRS'
  'Standard_GZRS'
])
param skuName string = 'Standard_LRS'

@description('Blob container of the table backups (the app setting BACKUP_CONTAINER).')
param containerName string

@description('Days each backup blob stays immutable after it is written: three years and one campaign.')
@minValue(1)
param retentionDays int = 1461

@description('''The account-level immutability policy: Disabled (no version-level immutability: development), Unlocked (the
first production deployment), Locked (production from then on; cannot be undone).''')
@allowed([
  'Disabled'
  'Unlocked'
  'Locked'
])
param immutability string

@description('Principal that writes the backups (the function app\'s identity).')
param writerPrincipalId string

@description('Object id of the operator who restores; empty for none.')
param operatorPrincipalId string = ''

@description('Kind of principal operatorPrincipalId is.')
@allowed([
  'User'
  'ServicePrincipal'
  'Group'
])
param operatorPrincipalType string = 'User'

@description('Log Analytics workspace that receives the blob logs (who read or wrote which backup).')
param logAnalyticsWorkspaceId string

@description('A CanNotDelete lock on the account. Production.')
param lock bool = false

@description('No public endpoint: the app writes through its private endpoint (network.bicep), a restore runs from the network or through the operator\'s path (docs/operations.md).')
param privateOnly bool = false

var roles = {
  blobDataContributor: 'ba92f5b4-2d11-453d-a403-e96b0029c9fe'
  blobDataReader: '2a2b9908-6ea1-4ae2-8e65-a410df84e7d1'
}

// Cool once a backup is a month old, Cold after three, deleted a month after its immutability ends (the lifecycle
// cannot delete a version while its policy holds it). Archive is not used: a restore must read any snapshot within the
// restore drill's time, and archived blobs take hours to rehydrate.
var lifecycle = {
  coolAfterDays: 30
  coldAfterDays: 90
  deleteAfterDays: retentionDays + 30
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
    // Written nightly, read only to restore.
    accessTier: 'Cool'
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
    // Versioning and a default time-based policy on every blob version, in the state the parameter says. Only at
    // creation can version-level immutability be enabled, and an account with it enabled can be deleted only empty.
    immutableStorageWithVersioning: immutability == 'Disabled'
      ? {
          enabled: false
        }
      : {
          enabled: true
          immutabilityPolicy: {
            immutabilityPeriodSinceCreationInDays: retentionDays
            state: immutability
            allowProtectedAppendWrites: false
          }
        }
  }
}

resource blobService 'Microsoft.Storage/storageAccounts/blobServices@2026-04-01' = {
  parent: account
  name: 'default'
  properties: {
    isVersioningEnabled: true
    containerDeleteRetentionPolicy: {
      enabled: true
      days: 30
    }
  }
}

resource container 'Microsoft.Storage/storageAccounts/blobServices/containers@2026-04-01' = {
  parent: blobService
  name: containerName
  properties: {
    publicAccess: 'None'
  }
}

resource lifecycleRules 'Microsoft.Storage/storageAccounts/managementPolicies@2026-04-01' = {
  parent: account
  name: 'default'
  properties: {
    policy: {
      rules: [
        {
          name: 'age-table-backups'
          enabled: true
          type: 'Lifecycle'
          definition: {
            filters: {
              blobTypes: [
                'blockBlob'
              ]
              prefixMatch: [
                '${containerName}/'
              ]
            }
            actions: {
              baseBlob: {
                tierToCool: {
                  daysAfterCreationGreaterThan: lifecycle.coolAfterDays
                }
                tierToCold: {
                  daysAfterCreationGreaterThan: lifecycle.coldAfterDays
                }
                delete: {
                  daysAfterCreationGreaterThan: lifecycle.deleteAfterDays
                }
              }
              version: {
                tierToCold: {
                  daysAfterCreationGreaterThan: lifecycle.coldAfterDays
                }
                delete: {
                  daysAfterCreationGreaterThan: lifecycle.deleteAfterDays
                }
              }
            }
          }
        }
      ]
    }
  }
}

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

// The app writes new backups; immutability keeps it from changing or deleting any.
resource writer 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(account.id, writerPrincipalId, roles.blobDataContributor)
  scope: account
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.blobDataContributor)
    principalId: writerPrincipalId
    principalType: 'ServicePrincipal'
    description: 'The nightly table backup (functions/table-backup.ts)'
  }
}

resource operatorReader 'Microsoft.Authorization/roleAssignments@2022-04-01' = if (!empty(operatorPrincipalId)) {
  name: guid(account.id, operatorPrincipalId, roles.blobDataReader)
  scope: account
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.blobDataReader)
    principalId: operatorPrincipalId
    principalType: operatorPrincipalType
    description: 'Restore (npm run admin -- restore) from an operator workstation'
  }
}

resource deleteLock 'Microsoft.Authorization/locks@2020-05-01' = if (lock) {
  name: 'keep-table-backups'
  scope: account
  properties: {
    level: 'CanNotDelete'
    notes: 'Holds the backups of farms\' treatment records (docs/operations.md, "Backup and restore").'
  }
}

output name string = account.name
output id string = account.id
output blobEndpoint string = account.properties.primaryEndpoints.blob
