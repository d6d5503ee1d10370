// Key Vault (RBAC authorization) for the SIEX client certificate, the SIEX credentials and the Functions host key
// that API Management presents. Workload identities get their roles in their own modules; the operator gets the
// officer roles here so the certificate and secrets can be uploaded after the first deployment.

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

resource vault 'Microsoft.KeyVault/vaults@2023-07-01' = {
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
    publicNetworkAccess: 'Enabled'
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
    description: 'Set the SIEX credentials and rotate the function host key secret'
  }
}

output name string = vault.name
output id string = vault.id
output uri string = vault.properties.vaultUri
