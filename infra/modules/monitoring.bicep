// Log Analytics workspace (every diagnostic setting of the deployment sends its logs here) and the workspace-based
// Application Insights component the function app and API Management report to, with local authentication off: only
// Entra ID identities with Monitoring Metrics Publisher on the component can send telemetry (functionApp.bicep,
// apim.bicep), so its connection string is an address, not a credential.

@description('Name of the Log Analytics workspace.')
param logAnalyticsName string

@description('Name of the Application Insights component.')
param applicationInsightsName string

@description('Azure region of both resources.')
param location string

@description('Tags applied to every resource.')
param tags object

@description('Days the workspace keeps logs.')
@minValue(30)
@maxValue(730)
param retentionInDays int = 30

resource workspace 'Microsoft.OperationalInsights/workspaces@2026-03-01' = {
  name: logAnalyticsName
  location: location
  tags: tags
  properties: {
    sku: {
      name: 'PerGB2018'
    }
    retentionInDays: retentionInDays
    features: {
      // Only Entra ID identities query or send: no workspace shared key exists to leak.
      disableLocalAuth: true
    }
  }
}

// Who queried the logs (LAQueryLogs): the audit trail of the audit trail.
resource workspaceDiagnostics 'Microsoft.Insights/diagnosticSettings@2021-05-01-preview' = {
  name: 'audit-to-log-analytics'
  scope: workspace
  properties: {
    workspaceId: workspace.id
    logs: [
      {
        categoryGroup: 'audit'
        enabled: true
      }
    ]
  }
}

resource appInsights 'Microsoft.Insights/components@2020-02-02' = {
  name: applicationInsightsName
  location: location
  tags: tags
  kind: 'web'
  properties: {
    Application_Type: 'web'
    WorkspaceResourceId: workspace.id
    DisableLocalAuth: true
  }
}

// The connection string is read by the modules that need it from the component itself: no output carries it.
output applicationInsightsName string = appInsights.name
output logAnalyticsWorkspaceId string = workspace.id
