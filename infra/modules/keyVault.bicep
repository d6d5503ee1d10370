// Key Vault (RBAC authorization) for the SIEX client certificate and the SIEX credentials, read by the function app
// through Key Vault references and by nobody else. The function app's identity gets its role in functionApp.bicep;
// the operator gets the officer roles here so the certificate and secrets can be uploaded after the first deployment.
// Every access is audited (AuditEvent, in the Log Analytics workspace).

@description('Key Vault name (3-24 characters, globally unique).')
@minLength(3)
@maxLength(24)
param name string

@description('Azure region.')
param location string

@description('Tags applied to every resource.')
param tags object

@description('Purge protection cannot be turned off again once on: production only.')
param enablePurgeProtection bool = false

@description('A CanNotDelete lock on the vault (the SIEX certificate and credentials live here). Production.')
param lock bool = false

@description('''Closed to the internet (main.bicep vnetEnabled): the app reads through its private endpoint (network.bicep), the
operators only from operatorIpRanges.''')
param restrictNetwork bool = false

@description('Public CIDR ranges the operators upload the SIEX certificate and credentials from (restrictNetwork).')
param operatorIpRanges array = []

@description('Log Analytics workspace that receives the audit events (who read or changed which secret, when).')
param logAnalyticsWorkspaceId string

@description('Object id of the operator who uploads the SIEX certificate and secrets; empty for none.')
param operatorPrincipalId string = ''

@description('Kind of principal operatorPrincipalId is.')
@allowed([
  'User'
  'ServicePrincipal'
  'Group'
])
param operatorPrincipalType string = 'User'

var roles = {
  certificatesOfficer: 'a4417e6f-fecd-4de8-b567-7b0420556985'
  secretsOfficer: 'b86a8fe4-44ce-4948-aee5-eccb2c155cd7'
}

resource vault 'Microsoft.KeyVault/vaults@2026-02-01' = {
  name: name
  location: location
  tags: tags
  properties: {
    tenantId: subscription().tenantId
    sku: {
      family: 'A'
      name: 'standard'
    }
    enableRbacAuthorization: true
    enableSoftDelete: true
    softDeleteRetentionInDays: 90
    // The API accepts true or nothing; false is rejected.
    enablePurgeProtection: enablePurgeProtection ? true : null
    // Closed: no public endpoint, or one that admits only the operators' addresses. The app's Key Vault references
    // resolve through its virtual network (Flex routes all outbound traffic there) to the private endpoint.
    publicNetworkAccess: restrictNetwork && empty(operatorIpRanges) ? 'Disabled' : 'Enabled'
    networkAcls: {
      defaultAction: restrictNetwork ? 'Deny' : 'Allow'
      bypass: 'None'
      ipRules: [for range in (restrictNetwork ? operatorIpRanges : []): {
        value: range
      }]
    }
  }
}

resource auditLogs 'Microsoft.Insights/diagnosticSettings@2021-05-01-preview' = {
  name: 'to-log-analytics'
  scope: vault
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

resource operatorCertificates 'Microsoft.Authorization/roleAssignments@2022-04-01' = if (!empty(operatorPrincipalId)) {
  name: guid(vault.id, operatorPrincipalId, roles.certificatesOfficer)
  scope: vault
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.certificatesOfficer)
    principalId: operatorPrincipalId
    principalType: operatorPrincipalType
    description: 'Import and renew the SIEX client certificate'
  }
}

resource operatorSecrets 'Microsoft.Authorization/roleAssignments@2022-04-01' = if (!empty(operatorPrincipalId)) {
  name: guid(vault.id, operatorPrincipalId, roles.secretsOfficer)
  scope: vault
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.secretsOfficer)
    principalId: operatorPrincipalId
    principalType: operatorPrincipalType
    description: 'Set and rotate the SIEX credentials'
  }
}

resource deleteLock 'Microsoft.Authorization/locks@2020-05-01' = if (lock) {
  name: 'keep-siex-credentials'
  scope: vault
  properties: {
    level: 'CanNotDelete'
    notes: 'Holds the SIEX client certificate and credentials (docs/operations.md, "Locks").'
  }
}

output name string = vault.name
output uri string = vault.properties.vaultUri
