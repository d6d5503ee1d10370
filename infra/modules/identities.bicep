// The two workload identities, created before anything that uses them: their principal ids are known before the
// function app and API Management exist, so every role assignment and App Service authentication setting that names
// them is written in the same deployment, in parallel, with nothing to wait for (no system-assigned identity whose id
// only exists once its resource does).

@description('Name of the function app\'s identity.')
param functionIdentityName string

@description('Name of API Management\'s identity.')
param apimIdentityName string

@description('Name of the sandbox\'s SIEX simulator identity (siexSimulator.bicep); empty for none (every other profile).')
param simulatorIdentityName string = ''

@description('Azure region.')
param location string

@description('Tags applied to every resource.')
param tags object

// The function app's identity: storage (host and data), Key Vault references, e-mail, telemetry.
resource functionIdentity 'Microsoft.ManagedIdentity/userAssignedIdentities@2024-11-30' = {
  name: functionIdentityName
  location: location
  tags: tags
}

// API Management's identity: the only caller App Service authentication admits to the function app, and telemetry.
resource apimIdentity 'Microsoft.ManagedIdentity/userAssignedIdentities@2024-11-30' = {
  name: apimIdentityName
  location: location
  tags: tags
}

// The sandbox's SIEX simulator: its own host account and siex-password, nothing of the gateway's.
resource simulatorIdentity 'Microsoft.ManagedIdentity/userAssignedIdentities@2024-11-30' = if (!empty(simulatorIdentityName)) {
  name: empty(simulatorIdentityName) ? 'none' : simulatorIdentityName
  location: location
  tags: tags
}

output functionIdentityId string = functionIdentity.id
output functionClientId string = functionIdentity.properties.clientId
output functionPrincipalId string = functionIdentity.properties.principalId
output apimIdentityId string = apimIdentity.id
output apimClientId string = apimIdentity.properties.clientId
output apimPrincipalId string = apimIdentity.properties.principalId
output simulatorIdentityId string = empty(simulatorIdentityName) ? '' : simulatorIdentity.id
output simulatorClientId string = empty(simulatorIdentityName) ? '' : simulatorIdentity.properties.clientId
output simulatorPrincipalId string = empty(simulatorIdentityName) ? '' : simulatorIdentity.properties.principalId
