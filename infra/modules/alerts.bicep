// What tells the operators before the users do: an action group that e-mails them; log alert rules over the Log
// Analytics workspace (each query in infra/monitoring/*.kql, analysed offline against the tables' columns by
// test/infra/kql.test.ts); activity-log alerts on what would take the legal records' protection away (a lock deleted,
// the backups' immutability or account changed, a role assigned) and on Azure's own Service Health notices; a standard
// availability test of GET /v1/health through API Management; a monthly budget; and the operations workbook.
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

@description('The availability test\'s API Management subscription (apim.bicep): its product holds one operation, GET /v1/health.')
param monitoringSubscriptionName string

@description('Path of the health operation through API Management (the monitor API\'s suffix and the route).')
param healthPath string

@description('The backup account (backup.bicep): any change to it, its immutability included, is alerted.')
param backupAccountId string

@description('Monthly budget of the resource group in the billing currency; 0 for none.')
@minValue(0)
param monthlyBudget int

@description('First day of the budget\'s first month (yyyy-MM-dd); the month of the deployment by default.')
param budgetStartDate string = utcNow('yyyy-MM-01')

@description('Where alerts are e-mailed; empty for none (development).')
param alertEmail string

@description('Name prefix of the alert resources.')
param namePrefix string

@description('Export jobs settled Fallido within 15 minutes above which the export-failed rule fires: 0, so one failed job does.')
@minValue(0)
param failedJobsThreshold int = 0

@description('''Error lines and exceptions within 15 minutes above which the function-errors rule fires: not every error line
(an unhandled error already answers its client 500, and api-5xx-rate counts those), but a run of them.''')
@minValue(0)
param functionErrorsThreshold int = 4

@description('Throttled or Server Busy storage calls within 15 minutes above which storage-throttling fires (the SDK retries a few).')
@minValue(0)
param throttledCallsThreshold int = 10

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
    description: 'A run of exceptions or error-level log lines in the function app.'
    severity: 2
    query: loadTextContent('../monitoring/function-errors.kql')
    queryRange: ''
    threshold: functionErrorsThreshold
  }
  {
    name: 'poison-messages'
    description: 'An export message or a webhook delivery reached its poison queue: the export job is settled as Fallido; the delivery is put back, or given up after 25 hours.'
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
    name: 'siex-certificate-expiry'
    description: 'The SIEX client certificate expires within 30 days, or cannot be read.'
    severity: 1
    query: loadTextContent('../monitoring/siex-certificate-expiry.kql')
    threshold: 0
    // The check runs once a day; the query reads the last report, up to two days back.
    queryRange: 'P2D'
  }
  {
    name: 'backup-age'
    description: 'No table backup was completed in the last 26 hours.'
    severity: 1
    query: loadTextContent('../monitoring/backup-age.kql')
    threshold: 0
    // The query looks 26 hours back, further than the evaluation window.
    queryRange: 'P2D'
  }
  {
    name: 'storage-throttling'
    description: 'The data account throttled or was too busy for the gateway\'s table and queue calls.'
    severity: 1
    query: loadTextContent('../monitoring/storage-throttling.kql')
    queryRange: ''
    threshold: throttledCallsThreshold
  }
  {
    name: 'queue-depth'
    description: 'Export messages are waiting in the queues for hours.'
    severity: 2
    query: loadTextContent('../monitoring/queue-depth.kql')
    threshold: 0
    // The queue service reports QueueMessageCount once an hour.
    queryRange: 'PT2H'
  }
  {
    name: 'siex-unreachable'
    description: 'Every SIEX probe in the window failed: SIEX is down or unreachable from the gateway.'
    severity: 1
    query: loadTextContent('../monitoring/siex-unreachable.kql')
    queryRange: ''
    threshold: 0
  }
  {
    name: 'certificate-check-missing'
    description: 'The daily SIEX certificate check did not run in the last 26 hours.'
    severity: 2
    query: loadTextContent('../monitoring/certificate-check-missing.kql')
    threshold: 0
    // The query looks 26 hours back, further than the evaluation window.
    queryRange: 'P2D'
  }
]

// The scopes the activity-log alerts watch (held in variables: an array item that is a call, on a line of its own,
// is more than tree-sitter-bicep reads as one expression).
var resourceGroupScope = resourceGroup().id
var subscriptionScope = subscription().id

// Activity-log alerts (Azure Monitor, "Activity log alerts": a condition on the events' category and operation, the
// scopes the prefixes of the resources they concern). Each one a change to what keeps the records safe.
var activityAlerts = [
  {
    name: 'lock-deleted'
    description: 'A delete lock was removed from a resource of this environment.'
    scopes: [
      resourceGroupScope
    ]
    condition: [
      {
        field: 'category'
        equals: 'Administrative'
      }
      {
        field: 'operationName'
        equals: 'Microsoft.Authorization/locks/delete'
      }
    ]
  }
  {
    name: 'backup-immutability-changed'
    description: 'An immutability policy of the backups was written, locked, extended or deleted.'
    scopes: [
      backupAccountId
    ]
    condition: [
      {
        field: 'category'
        equals: 'Administrative'
      }
      {
        anyOf: [
          {
            field: 'operationName'
            equals: 'Microsoft.Storage/storageAccounts/blobServices/containers/immutabilityPolicies/write'
          }
          {
            field: 'operationName'
            equals: 'Microsoft.Storage/storageAccounts/blobServices/containers/immutabilityPolicies/delete'
          }
          {
            field: 'operationName'
            equals: 'Microsoft.Storage/storageAccounts/blobServices/containers/immutabilityPolicies/lock/action'
          }
          {
            field: 'operationName'
            equals: 'Microsoft.Storage/storageAccounts/blobServices/containers/immutabilityPolicies/extend/action'
          }
        ]
      }
    ]
  }
  {
    // The account-level policy is a property of the account: a write to the account is how it changes.
    name: 'backup-account-written'
    description: 'The backup account or one of its settings was written or deleted.'
    scopes: [
      backupAccountId
    ]
    condition: [
      {
        field: 'category'
        equals: 'Administrative'
      }
      {
        anyOf: [
          {
            field: 'operationName'
            equals: 'Microsoft.Storage/storageAccounts/write'
          }
          {
            field: 'operationName'
            equals: 'Microsoft.Storage/storageAccounts/delete'
          }
          {
            field: 'operationName'
            equals: 'Microsoft.Storage/storageAccounts/blobServices/write'
          }
          {
            field: 'operationName'
            equals: 'Microsoft.Storage/storageAccounts/managementPolicies/write'
          }
          {
            field: 'operationName'
            equals: 'Microsoft.Storage/storageAccounts/managementPolicies/delete'
          }
        ]
      }
    ]
  }
  {
    name: 'role-assignment-changed'
    description: 'A role was assigned or removed in the subscription.'
    scopes: [
      subscriptionScope
    ]
    condition: [
      {
        field: 'category'
        equals: 'Administrative'
      }
      {
        anyOf: [
          {
            field: 'operationName'
            equals: 'Microsoft.Authorization/roleAssignments/write'
          }
          {
            field: 'operationName'
            equals: 'Microsoft.Authorization/roleAssignments/delete'
          }
        ]
      }
    ]
  }
  {
    name: 'service-health'
    description: 'Azure announced an incident, maintenance or advisory for the subscription (Service Health).'
    scopes: [
      subscriptionScope
    ]
    condition: [
      {
        field: 'category'
        equals: 'ServiceHealth'
      }
    ]
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

resource logAlerts 'Microsoft.Insights/scheduledQueryRules@2026-03-01' = [
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
      // A new rule's query is checked by Azure against the workspace's tables, and a table no data has reached yet
      // (AppTraces, StorageQueueLogs on a first provision) fails it: the queries are checked offline instead
      // (test/infra/kql.test.ts). "Scheduled query rules", skipQueryValidation.
      skipQueryValidation: true
      actions: {
        actionGroups: [
          actionGroup.id
        ]
      }
    }
  }
]

resource activityLogAlerts 'Microsoft.Insights/activityLogAlerts@2026-01-01' = [
  for alert in activityAlerts: {
    name: '${namePrefix}-${alert.name}'
    location: 'global'
    tags: tags
    properties: {
      description: alert.description
      enabled: true
      scopes: alert.scopes
      condition: {
        allOf: alert.condition
      }
      actions: {
        actionGroups: [
          {
            actionGroupId: actionGroup.id
          }
        ]
      }
    }
  }
]

// Cost Management e-mails at 80 % of the month's budget spent and at 100 % forecast, to the operators.
resource budget 'Microsoft.Consumption/budgets@2024-08-01' = if (monthlyBudget > 0) {
  name: '${namePrefix}-monthly'
  properties: {
    category: 'Cost'
    amount: monthlyBudget
    timeGrain: 'Monthly'
    timePeriod: {
      startDate: budgetStartDate
    }
    notifications: {
      actual80: {
        enabled: true
        operator: 'GreaterThan'
        threshold: 80
        thresholdType: 'Actual'
        contactEmails: empty(alertEmail) ? [] : [alertEmail]
        contactGroups: [
          actionGroup.id
        ]
      }
      forecast100: {
        enabled: true
        operator: 'GreaterThan'
        threshold: 100
        thresholdType: 'Forecasted'
        contactEmails: empty(alertEmail) ? [] : [alertEmail]
        contactGroups: [
          actionGroup.id
        ]
      }
    }
  }
}

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

// Through API Management, as a client calls: GET /v1/health (tables, queues, Key Vault references; and a SIEX probe),
// with the key of a subscription to a product of that one operation, so the key the test's definition shows grants
// nothing else; the key changes at every provision (main.bicep availabilityKey). Every 5 minutes from three European
// locations.
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
    Description: 'GET /v1/health through the gateway; the availability alert fires when two locations fail.'
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
      RequestUrl: '${apim.properties.gatewayUrl}${healthPath}'
      HttpVerb: 'GET'
      FollowRedirects: false
      Headers: [
        {
          key: 'Ocp-Apim-Subscription-Key'
          value: monitoringSubscription.listSecrets().primaryKey
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
