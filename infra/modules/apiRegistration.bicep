// The Entra ID application the function app stands for as a resource: API Management's identity asks Entra ID for a
// token whose audience is this application (policies/api.xml, authentication-managed-identity), and App Service
// authentication on the function app accepts only such tokens, and only API Management's (functionApp.bicep).
// Created through the Microsoft Graph Bicep extension (bicepconfig.json), so `azd up` needs no manual step; the
// deploying identity needs the right to register applications (docs/operations.md, "Deploy", prerequisites).

extension microsoftGraphV1

@description('Unique name of the registration in the tenant (an alternate key: one per environment).')
param uniqueName string

@description('Display name of the registration.')
param displayName string

resource application 'Microsoft.Graph/applications@v1.0' = {
  uniqueName: uniqueName
  displayName: displayName
  signInAudience: 'AzureADMyOrg'
  // v2 tokens whatever endpoint the caller uses: issuer https://login.microsoftonline.com/<tenant>/v2.0 and audience
  // this application's client id, the two values App Service authentication checks.
  api: {
    requestedAccessTokenVersion: 2
  }
}

// A tenant issues tokens for an application only through its service principal.
resource servicePrincipal 'Microsoft.Graph/servicePrincipals@v1.0' = {
  appId: application.appId
}

output clientId string = application.appId
