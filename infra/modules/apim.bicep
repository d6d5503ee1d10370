// API Management in front of the function app: the API imported from the OpenAPI document the code generates
// (infra/openapi.json, written by local/write-openapi.ts), the product of this environment, and the policies of
// docs/architecture.md, "Identity and access" (policies/*.xml). It calls the function app with an Entra ID token of
// its own user-assigned identity (identities.bicep), which App Service authentication on the function app requires:
// no key, no secret, nothing read from Key Vault (API Management has no role on the vault). Every request is logged to
// Application Insights (through that identity: the component accepts no instrumentation key) with the headers that
// carry keys hidden, and, where the tier offers them, as gateway logs in the Log Analytics workspace.

@description('API Management service name.')
param name string

@description('Azure region.')
param location string

@description('Tags applied to every resource.')
param tags object

@description('Pricing tier: Consumption (dev: pay per call, no developer portal, no gateway logs in Log Analytics) or BasicV2 / StandardV2 (production: SLA, developer portal, gateway logs).')
@allowed([
  'Consumption'
  'BasicV2'
  'StandardV2'
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

@description('Resource id of API Management\'s user-assigned identity.')
param identityId string

@description('Client id of API Management\'s identity: selects it in the token and telemetry calls.')
param identityClientId string

@description('Principal id of API Management\'s identity, which the role assignment names.')
param identityPrincipalId string

@description('Client id of the gateway\'s Entra ID application: the audience of the token sent to the function app.')
param apiClientId string

@description('Application Insights component that receives the request telemetry.')
param applicationInsightsName string

@description('Log Analytics workspace that receives the gateway logs (not in the Consumption tier).')
param logAnalyticsWorkspaceId string

@description('''The availability test's subscription key, new at every provision (main.bicep availabilityKey): the key its
definition shows in the portal is the key of one operation, GET /v1/health, and not for long.''')
@secure()
param monitorKey string

@description('''A CanNotDelete lock on the service. Production: the service holds every client's subscription, and with it
the API keys clients call with; a deleted service takes them all (docs/operations.md, "Locks").''')
param lock bool = false

var monitoringMetricsPublisher = '3913510d-42f4-4e42-8a64-420c390055eb'
// Headers and query parameters that carry credentials: never written to any log, even if a header list grows later.
var keyMasking = {
  headers: [
    {
      value: 'Ocp-Apim-Subscription-Key'
      mode: 'Hide'
    }
    {
      value: 'Ocp-Apim-Sid-Key'
      mode: 'Hide'
    }
    {
      value: 'Authorization'
      mode: 'Hide'
    }
  ]
  queryParams: [
    {
      value: 'subscription-key'
      mode: 'Hide'
    }
  ]
}
// What is logged of each request and response: no body (records carry personal data), a few harmless headers.
var requestLog = {
  headers: [
    'Content-Type'
    'Content-Length'
    'Idempotency-Key'
  ]
  body: {
    bytes: 0
  }
  dataMasking: keyMasking
}
var responseLog = {
  headers: [
    'Content-Type'
    'Retry-After'
  ]
  body: {
    bytes: 0
  }
  dataMasking: keyMasking
}

resource service 'Microsoft.ApiManagement/service@2024-05-01' = {
  name: name
  location: location
  tags: tags
  sku: {
    name: sku
    capacity: sku == 'Consumption' ? 0 : 1
  }
  identity: {
    type: 'UserAssigned'
    userAssignedIdentities: {
      '${identityId}': {}
    }
  }
  properties: {
    publisherEmail: publisherEmail
    publisherName: publisherName
    // Management API calls older than this are refused: old API versions could read secrets (named values,
    // subscription keys) without the listSecrets permission.
    apiVersionConstraint: {
      minApiVersion: '2021-08-01'
    }
  }
}

// Clients are onboarded by operators (docs/operations.md, "Onboarding a client"), never by signing themselves up in
// the developer portal: a self-made account could subscribe to the product and wait for approval.
resource portalSignup 'Microsoft.ApiManagement/service/portalsettings@2024-05-01' = if (sku != 'Consumption') {
  parent: service
  name: 'signup'
  properties: {
    enabled: false
  }
}

// Referenced by policies/api.xml: the audience of the token and the identity that asks for it. Neither is a secret.
resource backendAppId 'Microsoft.ApiManagement/service/namedValues@2024-05-01' = {
  parent: service
  name: 'backend-app-id'
  properties: {
    displayName: 'backend-app-id'
    value: apiClientId
    secret: false
  }
}

resource gatewayIdentityClientId 'Microsoft.ApiManagement/service/namedValues@2024-05-01' = {
  parent: service
  name: 'apim-identity-client-id'
  properties: {
    displayName: 'apim-identity-client-id'
    value: identityClientId
    secret: false
  }
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
    // API Management always reads a key from a query parameter too; policies/api.xml refuses every call that uses
    // this one, so a key never travels in a URL.
    subscriptionKeyParameterNames: {
      header: 'Ocp-Apim-Subscription-Key'
      query: 'subscription-key'
    }
    // Required query parameters stay query parameters, so a missing one reaches the app and earns its 400.
    translateRequiredQueryParameters: 'query'
    format: 'openapi+json'
    // loadJsonContent allows 1,048,576 characters where loadTextContent allows 131,072: the document outgrew that.
    value: string(loadJsonContent('../openapi.json'))
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
    backendAppId
    gatewayIdentityClientId
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

// The availability test's own API, product and subscription (modules/alerts.bicep): one operation, GET /v1/health, and
// nothing else, so its key, which the availability test's definition shows, reaches no record and no farm. An API of
// its own because a product holds whole APIs; under `monitor/` because every API needs a suffix of its own and the
// client API's is empty.
resource monitorApi 'Microsoft.ApiManagement/service/apis@2024-05-01' = {
  parent: service
  name: 'siex-gateway-monitor'
  properties: {
    displayName: 'SIEX gateway health (availability test)'
    description: 'GET /v1/health only, for the availability test.'
    path: 'monitor'
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
  }
}

resource monitorOperation 'Microsoft.ApiManagement/service/apis/operations@2024-05-01' = {
  parent: monitorApi
  name: 'health'
  properties: {
    displayName: 'Health'
    method: 'GET'
    urlTemplate: '/v1/health'
    description: 'Tables, queues and Key Vault references: 200 when all answer, 503 otherwise.'
  }
}

resource monitorPolicy 'Microsoft.ApiManagement/service/apis/policies@2024-05-01' = {
  parent: monitorApi
  name: 'policy'
  properties: {
    format: 'xml'
    value: loadTextContent('../policies/monitor.xml')
  }
  dependsOn: [
    backendAppId
    gatewayIdentityClientId
  ]
}

resource monitorProduct 'Microsoft.ApiManagement/service/products@2024-05-01' = {
  parent: service
  name: 'availability-monitor'
  properties: {
    displayName: 'Availability monitor'
    description: 'GET /v1/health only: the key of the availability test (Azure Monitor). Not for clients.'
    subscriptionRequired: true
    approvalRequired: true
    // Not published: no developer sees it in the portal or can ask for a subscription.
    state: 'notPublished'
  }
}

resource monitorProductApi 'Microsoft.ApiManagement/service/products/apis@2024-05-01' = {
  parent: monitorProduct
  name: monitorApi.name
}

resource monitoringSubscription 'Microsoft.ApiManagement/service/subscriptions@2024-05-01' = {
  parent: service
  name: 'availability-monitor'
  properties: {
    displayName: 'Availability test (Azure Monitor)'
    scope: '/products/${monitorProduct.name}'
    state: 'active'
    allowTracing: false
    primaryKey: monitorKey
  }
  dependsOn: [
    monitorProductApi
  ]
}

// The developer portal exists only outside the Consumption tier; there, signed-up developers see the product.
resource productDevelopers 'Microsoft.ApiManagement/service/products/groups@2024-05-01' = if (sku != 'Consumption') {
  parent: product
  name: 'developers'
}

resource appInsights 'Microsoft.Insights/components@2020-02-02' existing = {
  name: applicationInsightsName
}

resource telemetryPublisher 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(appInsights.id, identityId, monitoringMetricsPublisher)
  scope: appInsights
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', monitoringMetricsPublisher)
    principalId: identityPrincipalId
    principalType: 'ServicePrincipal'
  }
}

// Request telemetry to Application Insights with the managed identity (the connection string only addresses the
// component; with local authentication off it grants nothing).
resource appInsightsLogger 'Microsoft.ApiManagement/service/loggers@2024-05-01' = {
  parent: service
  name: 'application-insights'
  properties: {
    loggerType: 'applicationInsights'
    resourceId: appInsights.id
    credentials: {
      connectionString: appInsights.properties.ConnectionString
      identityClientId: identityClientId
    }
  }
}

resource appInsightsDiagnostic 'Microsoft.ApiManagement/service/diagnostics@2024-05-01' = {
  parent: service
  name: 'applicationinsights'
  properties: {
    loggerId: appInsightsLogger.id
    alwaysLog: 'allErrors'
    httpCorrelationProtocol: 'W3C'
    logClientIp: false
    sampling: {
      samplingType: 'fixed'
      percentage: 100
    }
    frontend: {
      request: requestLog
      response: responseLog
    }
    backend: {
      request: requestLog
      response: responseLog
    }
  }
}

// Gateway logs (ApiManagementGatewayLogs) in the workspace, masked the same way. The Consumption tier has no Azure
// Monitor request logs: there the diagnostic setting carries the metrics only, and requests go to Application Insights.
resource azureMonitorLogger 'Microsoft.ApiManagement/service/loggers@2024-05-01' = if (sku != 'Consumption') {
  parent: service
  name: 'azuremonitor'
  properties: {
    loggerType: 'azureMonitor'
  }
}

resource azureMonitorDiagnostic 'Microsoft.ApiManagement/service/diagnostics@2024-05-01' = if (sku != 'Consumption') {
  parent: service
  name: 'azuremonitor'
  properties: {
    loggerId: azureMonitorLogger.id
    logClientIp: false
    sampling: {
      samplingType: 'fixed'
      percentage: 100
    }
    frontend: {
      request: requestLog
      response: responseLog
    }
    backend: {
      request: requestLog
      response: responseLog
    }
  }
}

resource gatewayDiagnostics 'Microsoft.Insights/diagnosticSettings@2021-05-01-preview' = {
  name: 'to-log-analytics'
  scope: service
  properties: {
    workspaceId: logAnalyticsWorkspaceId
    logAnalyticsDestinationType: 'Dedicated'
    logs: sku == 'Consumption'
      ? []
      : [
          {
            categoryGroup: 'allLogs'
            enabled: true
          }
        ]
    metrics: [
      {
        category: 'AllMetrics'
        enabled: true
      }
    ]
  }
}

// The service holds every client's subscription key: deleting it would cut every client off until each got a new key.
resource deleteLock 'Microsoft.Authorization/locks@2020-05-01' = if (lock) {
  name: 'keep-client-subscriptions'
  scope: service
  properties: {
    level: 'CanNotDelete'
    notes: 'Holds every client\'s subscription and API key (docs/operations.md, "Locks").'
  }
}

output name string = service.name
output gatewayUrl string = service.properties.gatewayUrl
output productId string = product.name
output monitoringSubscriptionName string = monitoringSubscription.name
// Where the availability test calls: the monitor API's suffix and the operation's route.
output healthPath string = '/${monitorApi.properties.path}${monitorOperation.properties.urlTemplate}'
