// Copies the Functions host's `default` key into Key Vault, where API Management reads it (named value
// `function-host-key`) and presents it as `x-functions-key`. Every HTTP function is registered with
// authLevel 'function' (shared/http/register.ts), so without that key the app answers 401: only API Management
// can call it. A separate module, so that listKeys runs after the function app and its role assignments exist.

@description('Function app whose host key is copied.')
param functionAppName string

@description('Key Vault that receives the secret.')
param keyVaultName string

@description('Name of the secret.')
param secretName string = 'function-host-key'

resource site 'Microsoft.Web/sites@2024-04-01' existing = {
  name: functionAppName
}

resource vault 'Microsoft.KeyVault/vaults@2023-07-01' existing = {
  name: keyVaultName
}

resource hostKey 'Microsoft.KeyVault/vaults/secrets@2023-07-01' = {
  parent: vault
  name: secretName
  properties: {
    contentType: 'Azure Functions host key (default), sent by API Management as x-functions-key'
    value: listKeys('${site.id}/host/default', '2024-04-01').functionKeys.default
  }
}

// Versionless: API Management picks up a rotated key within 4 hours (or at once with "refresh secret").
output secretUri string = hostKey.properties.secretUri
