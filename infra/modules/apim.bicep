// API Management in front of the function app: the API imported from the OpenAPI document the code generates
// (infra/openapi.json, written by local/write-openapi.ts), the product of this environment, and the policies of
// docs/architecture.md, "Identity and access" (policies/*.xml). The function key reaches the gateway through Key Vault, never through the
// template's inputs or outputs.

@description('API Management service name.')
param name string

@description('Azure region.')
param location string

@description('Tags applied to every resource.')
param tags object

@description('Pricing tier: Consumption (dev: fast to create, no developer portal) or Developer (developer portal).')
@allowed([
  'Consumption'
  'Developer'
])
param sku string

@description('E-mail of the API publisher (receives APIM system notifications).')
param publisherEmail string

@description('Name of the API publisher.')
param publisherName string

@description('Product identifier of this environment: api-service-siex-dev or api-service-siex.')
@allowed([
  'api-service-siex-dev'
  'api-service-siex'
])
param apiServiceSiexProduct string

@description('Host name of the function app (backend).')
param functionAppHostName string

@description('Key Vault that holds the function host key.')
param keyVaultName string

@description('Versionless URI of the Key Vault secret holding the function host key.')
param functionKeySecretUri string

var keyVaultSecretsUser = '4633458b-17de-408a-b874-0445c86b69e6'

resource service 'Microsoft.ApiManagement/service@2024-05-01' = {
  name: name
  location: location
  tags: tags
  sku: {
    name: sku
    capacity: sku == 'Consumption' ? 0 : 1
  }
  identity: {
    type: 'SystemAssigned'
  }
  properties: {
    publisherEmail: publisherEmail
    publisherName: publisherName
  }
}

resource vault 'Microsoft.KeyVault/vaults@2023-07-01' existing = {
  name: keyVaultName
}

resource gatewaySecretsUser 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(vault.id, service.id, keyVaultSecretsUser)
  scope: vault
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', keyVaultSecretsUser)
    principalId: service.identity.principalId
    principalType: 'ServicePrincipal'
  }
}

// Referenced by policies/api.xml as {{function-host-key}}.
resource functionHostKey 'Microsoft.ApiManagement/service/namedValues@2024-05-01' = {
  parent: service
  name: 'function-host-key'
  properties: {
    displayName: 'function-host-key'
    secret: true
    keyVault: {
      secretIdentifier: functionKeySecretUri
    }
  }
  dependsOn: [
    gatewaySecretsUser
  ]
}

// Service scope: forwards to the backend (30 s, the spec's response time-out) and turns every gateway error into
// problem details.
resource globalPolicy 'Microsoft.ApiManagement/service/policies@2024-05-01' = {
  parent: service
  name: 'policy'
  properties: {
    format: 'xml'
    value: loadTextContent('../policies/global.xml')
  }
}

resource api 'Microsoft.ApiManagement/service/apis@2024-05-01' = {
  parent: service
  name: 'siex-gateway'
  properties: {
    displayName: 'SIEX gateway'
    description: 'Phytosanitary treatment records and their export to SIEX (digital farm notebook, CUE).'
    // Empty suffix: the gateway serves the spec's paths as they are (/v1/..., /api-service/v1/...).
    path: ''
    protocols: [
      'https'
    ]
    apiType: 'http'
    type: 'http'
    serviceUrl: 'https://${functionAppHostName}'
    subscriptionRequired: true
    subscriptionKeyParameterNames: {
      header: 'Ocp-Apim-Subscription-Key'
      query: 'subscription-key'
    }
    // Required query parameters stay query parameters, so a missing one reaches the app and earns its 400.
    translateRequiredQueryParameters: 'query'
    format: 'openapi+json'
    value: loadTextContent('../openapi.json')
  }
}

resource apiPolicy 'Microsoft.ApiManagement/service/apis/policies@2024-05-01' = {
  parent: api
  name: 'policy'
  properties: {
    format: 'xml'
    value: loadTextContent('../policies/api.xml')
  }
  dependsOn: [
    functionHostKey
  ]
}

resource product 'Microsoft.ApiManagement/service/products@2024-05-01' = {
  parent: service
  name: apiServiceSiexProduct
  properties: {
    displayName: apiServiceSiexProduct
    description: 'Access to the SIEX gateway. Every call needs Ocp-Apim-Subscription-Key (this product\'s subscription key) and Ocp-Apim-Sid-Key (the client\'s SID key).'
    subscriptionRequired: true
    approvalRequired: true
    state: 'published'
  }
}

resource productApi 'Microsoft.ApiManagement/service/products/apis@2024-05-01' = {
  parent: product
  name: api.name
}

// The developer portal exists only outside the Consumption tier; there, signed-up developers see the product.
resource productDevelopers 'Microsoft.ApiManagement/service/products/groups@2024-05-01' = if (sku != 'Consumption') {
  parent: product
  name: 'developers'
}

output name string = service.name
output gatewayUrl string = service.properties.gatewayUrl
output productId string = product.name
output principalId string = service.identity.principalId
