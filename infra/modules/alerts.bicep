// What tells the operators before the users do: an action group that e-mails them, log alert rules over the Log
// Analytics workspace (each query in infra/monitoring/*.kql, analysed offline against the tables' columns by
// test/infra/kql.test.ts), a standard availability test through API Management, and the operations workbook.
// docs/operations.md says what to do when each one fires.

@description('Azure region of the rules, the test and the workbook.')
param location string

@description('Tags applied to every resource.')
param tags object

@description('Log Analytics workspace the rules query (the app\'s telemetry and the gateway logs are stored there).')
param logAnalyticsWorkspaceId string

@description('Application Insights component the availability test reports to.')
param applicationInsightsName string

@description('API Management service whose gateway the availability test calls.')
param apimName string

@description('The availability test\'s API Management subscription (apim.bicep).')
param monitoringSubscriptionName string

@description('Where alerts are e-mailed; empty for none (development).')
param alertEmail string

@description('Name prefix of the alert resources.')
param namePrefix string

@description('Export jobs settled Fallido within 15 minutes above which the export-failed rule fires.')
@minValue(0)
param failedJobsThreshold int = 2

var evaluation = {
  frequency: 'PT5M'
  window: 'PT15M'
}

// Each rule: its query file, how bad it is (0 critical … 4 verbose), the number of result rows that fires it, and how
// far back its query reads when that is more than the evaluation window ('' for the window).
var rules = [
  {
    name: 'api-5xx-rate'
    description: 'More than 5 % of the calls answered 5xx by API Management.'
    severity: 1
    query: loadTextContent('../monitoring/api-5xx-rate.kql')
    queryRange: ''
    threshold: 0
  }
  {
    name: 'backend-time'
    description: 'The app\'s 95th percentile answer time above 5 s.'
    severity: 2
    query: loadTextContent('../monitoring/backend-time.kql')
    queryRange: ''
    threshold: 0
  }
  {
    name: 'function-errors'
    description: 'Exceptions or error-level log lines in the function app.'
    severity: 2
    query: loadTextContent('../monitoring/function-errors.kql')
    queryRange: ''
    threshold: 0
  }
  {
    name: 'poison-messages'
    description: 'An export message reached the poison queue: its job is settled as Fallido.'
    severity: 1
    query: loadTextContent('../monitoring/poison-messages.kql')
    queryRange: ''
    threshold: 0
  }
  {
    name: 'export-worker-failures'
    description: 'Export worker or sweeper invocations failing repeatedly.'
    severity: 2
    query: loadTextContent('../monitoring/export-worker-failures.kql')
    queryRange: ''
    threshold: 3
  }
  {
    name: 'export-stuck'
    description: 'An export job has not settled 30 minutes after its last move.'
    severity: 1
    query: loadTextContent('../monitoring/export-stuck.kql')
    threshold: 0
    // A job's last move may be hours old: the query reads 6 hours of `job.state` events.
    queryRange: 'PT6H'
  }
  {
    name: 'export-failed'
    description: 'Export jobs settled Fallido above the threshold.'
    severity: 2
    query: loadTextContent('../monitoring/export-failed.kql')
    queryRange: ''
    threshold: failedJobsThreshold
  }
  {
    name: 'siex-not-configured'
    description: 'The app cannot reach SIEX at all: a setting is missing or a Key Vault reference did not resolve.'
    severity: 0
    query: loadTextContent('../monitoring/siex-not-configured.kql')
    queryRange: ''
    threshold: 0
  }
  {
    name: 'availability'
    description: 'The availability test failed from two locations or more.'
    severity: 0
    query: loadTextContent('../monitoring/availability.kql')
    queryRange: ''
    threshold: 0
  }
  {
    name: 'backup-age'
    description: 'No table backup succeeded in the last 26 hours.'
    severity: 1
    query: loadTextContent('../monitoring/backup-age.kql')
    threshold: 0
    // The query looks 26 hours back, further than the evaluation window.
    queryRange: 'P2D'
  }
]

resource actionGroup 'Microsoft.Insights/actionGroups@2023-01-01' = {
  name: '${namePrefix}-operators'
  location: 'global'
  tags: tags
  properties: {
    groupShortName: 'siexops'
    enabled: true
    emailReceivers: empty(alertEmail)
      ? []
      : [
          {
            name: 'operators'
            emailAddress: alertEmail
            useCommonAlertSchema: true
          }
        ]
  }
}

resource logAlerts 'Microsoft.Insights/scheduledQueryRules@2023-12-01' = [
  for rule in rules: {
    name: '${namePrefix}-${rule.name}'
    location: location
    tags: tags
    kind: 'LogAlert'
    properties: {
      displayName: 'SIEX gateway: ${rule.name}'
      description: rule.description
      severity: rule.severity
      enabled: true
      scopes: [
        logAnalyticsWorkspaceId
      ]
      evaluationFrequency: evaluation.frequency
      windowSize: evaluation.window
      overrideQueryTimeRange: empty(rule.queryRange) ? null : rule.queryRange
      criteria: {
        allOf: [
          {
            query: rule.query
            timeAggregation: 'Count'
            operator: 'GreaterThan'
            threshold: rule.threshold
            failingPeriods: {
              numberOfEvaluationPeriods: 1
              minFailingPeriodsToAlert: 1
            }
          }
        ]
      }
      autoMitigate: true
      actions: {
        actionGroups: [
          actionGroup.id
        ]
      }
    }
  }
]

resource appInsights 'Microsoft.Insights/components@2020-02-02' existing = {
  name: applicationInsightsName
}

resource apim 'Microsoft.ApiManagement/service@2024-05-01' existing = {
  name: apimName
}

resource monitoringSubscription 'Microsoft.ApiManagement/service/subscriptions@2024-05-01' existing = {
  parent: apim
  name: monitoringSubscriptionName
}

// Through API Management, as a client calls: the OpenAPI document needs the subscription key and a SID key header,
// and no client of the gateway (its key grants no farm's data). Every 5 minutes from three European locations.
resource availabilityTest 'Microsoft.Insights/webtests@2022-06-15' = {
  name: '${namePrefix}-availability'
  location: location
  // The portal shows a test under its component only with this tag.
  tags: union(tags, {
    'hidden-link:${appInsights.id}': 'Resource'
  })
  kind: 'standard'
  properties: {
    SyntheticMonitorId: '${namePrefix}-availability'
    Name: 'SIEX gateway through API Management'
    Description: 'GET /v1/openapi.json through the gateway; the availability alert fires when two locations fail.'
    Enabled: true
    Frequency: 300
    Timeout: 30
    Kind: 'standard'
    RetryEnabled: true
    Locations: [
      {
        Id: 'emea-nl-ams-azr'
      }
      {
        Id: 'emea-gb-db3-azr'
      }
      {
        Id: 'emea-fr-pra-edge'
      }
    ]
    Request: {
      RequestUrl: '${apim.properties.gatewayUrl}/v1/openapi.json'
      HttpVerb: 'GET'
      FollowRedirects: false
      Headers: [
        {
          key: 'Ocp-Apim-Subscription-Key'
          value: monitoringSubscription.listSecrets().primaryKey
        }
        {
          key: 'Ocp-Apim-Sid-Key'
          value: 'availability-test'
        }
      ]
    }
    ValidationRules: {
      ExpectedHttpStatusCode: 200
      SSLCheck: true
      // The gateway's TLS certificate is Azure's; a warning two weeks ahead still leaves time to act.
      SSLCertRemainingLifetimeCheck: 14
    }
  }
}

resource workbook 'Microsoft.Insights/workbooks@2023-06-01' = {
  // A workbook's name must be a GUID; this one is stable per deployment.
  name: guid(resourceGroup().id, namePrefix, 'operations-workbook')
  location: location
  tags: tags
  kind: 'shared'
  properties: {
    displayName: 'SIEX gateway operations'
    category: 'workbook'
    version: 'Notebook/1.0'
    sourceId: logAnalyticsWorkspaceId
    serializedData: loadTextContent('../monitoring/workbook.json')
  }
}

output actionGroupId string = actionGroup.id
