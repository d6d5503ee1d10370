// The Entra ID application the function app stands for as a resource: API Management's identity asks Entra ID for a
// token whose audience is this application (policies/api.xml, authentication-managed-identity), and App Service
// authentication on the function app accepts only such tokens, and only API Management's (functionApp.bicep).
// Created through the Microsoft Graph Bicep extension (bicepconfig.json), so `azd up` needs no manual step; the
// deploying identity needs the right to register applications (docs/operations.md, "Deploy", prerequisites).
//
// Entra ID itself refuses tokens for this application to anyone not assigned one of its app roles
// (appRoleAssignmentRequired), and only API Management's identity is: a second lock in front of the one App Service
// authentication keeps, so a token for the gateway's audience cannot even be obtained by another identity of the
// tenant.

extension microsoftGraphV1

@description('Unique name of the registration in the tenant (an alternate key: one per environment).')
param uniqueName string

@description('Display name of the registration.')
param displayName string

@description('Principal id of API Management\'s identity: the only principal assigned the role that calls the backend.')
param apimPrincipalId string

// Stable for the registration: the role's id must not change between provisions, or the assignment would lapse.
var backendCallerRoleId = guid(uniqueName, 'backend-caller')

resource application 'Microsoft.Graph/applications@v1.0' = {
  uniqueName: uniqueName
  displayName: displayName
  signInAudience: 'AzureADMyOrg'
  // v2 tokens whatever endpoint the caller uses: issuer https://login.microsoftonline.com/<tenant>/v2.0 and audience
  // this application's client id, the two values App Service authentication checks.
  api: {
    requestedAccessTokenVersion: 2
  }
  appRoles: [
    {
      id: backendCallerRoleId
      allowedMemberTypes: [
        'Application'
      ]
      displayName: 'Call the SIEX gateway backend'
      description: 'API Management calls the function app with a token of this application.'
      value: 'Backend.Call'
      isEnabled: true
    }
  ]
}

// A tenant issues tokens for an application only through its service principal; only to assigned principals here.
resource servicePrincipal 'Microsoft.Graph/servicePrincipals@v1.0' = {
  appId: application.appId
  appRoleAssignmentRequired: true
}

resource apimCanCall 'Microsoft.Graph/appRoleAssignedTo@v1.0' = {
  appRoleId: backendCallerRoleId
  principalId: apimPrincipalId
  resourceId: servicePrincipal.id
}

output clientId string = application.appId
