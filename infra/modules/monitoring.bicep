// Log Analytics workspace and the workspace-based Application Insights component the function app reports to.

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

resource workspace 'Microsoft.OperationalInsights/workspaces@2023-09-01' = {
  name: logAnalyticsName
  location: location
  tags: tags
  properties: {
    sku: {
      name: 'PerGB2018'
    }
    retentionInDays: retentionInDays
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
  }
}

// The connection string is read by the function app module from the component itself: no output carries it.
output applicationInsightsName string = appInsights.name
output applicationInsightsId string = appInsights.id
output logAnalyticsWorkspaceId string = workspace.id
