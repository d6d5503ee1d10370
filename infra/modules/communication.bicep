// Communication Services e-mail: an Email Communication Service with an Azure-managed domain
// (<guid>.azurecomm.net, no DNS to verify), a sender username, and the Communication Service linked to that domain,
// with access keys disabled: the function app sends with its identity, through a custom role (emailSenderRole.bicep)
// that can send and nothing more (not "Communication and Email Service Owner", which can list and regenerate keys and
// delete domains).
// API version 2025-05-01 is the first with disableLocalAuth.

@description('Name of the Communication Service.')
param communicationServiceName string

@description('Name of the Email Communication Service.')
param emailServiceName string

@description('Tags applied to every resource.')
param tags object

@description('Where Communication Services stores data at rest.')
param dataLocation string = 'Europe'

@description('Local part of the sender address.')
param senderUsername string = 'DoNotReply'

@description('Display name of the sender.')
param senderDisplayName string = 'SIEX gateway'

@description('Principal id of the identity that sends the e-mails (the function app\'s).')
param senderPrincipalId string

@description('The custom e-mail sender role (emailSenderRole.bicep), defined in an earlier deployment.')
param senderRoleDefinitionId string

@description('Log Analytics workspace that receives the e-mail send and delivery logs.')
param logAnalyticsWorkspaceId string

resource emailService 'Microsoft.Communication/emailServices@2026-03-18' = {
  name: emailServiceName
  location: 'global'
  tags: tags
  properties: {
    dataLocation: dataLocation
  }
}

resource domain 'Microsoft.Communication/emailServices/domains@2026-03-18' = {
  parent: emailService
  name: 'AzureManagedDomain'
  location: 'global'
  tags: tags
  properties: {
    domainManagement: 'AzureManaged'
    userEngagementTracking: 'Disabled'
  }
}

resource sender 'Microsoft.Communication/emailServices/domains/senderUsernames@2026-03-18' = {
  parent: domain
  name: toLower(senderUsername)
  properties: {
    username: senderUsername
    displayName: senderDisplayName
  }
}

resource communicationService 'Microsoft.Communication/communicationServices@2026-03-18' = {
  name: communicationServiceName
  location: 'global'
  tags: tags
  properties: {
    dataLocation: dataLocation
    disableLocalAuth: true
    linkedDomains: [
      domain.id
    ]
  }
}

resource emailSender 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(communicationService.id, senderPrincipalId, senderRoleDefinitionId)
  scope: communicationService
  properties: {
    roleDefinitionId: senderRoleDefinitionId
    principalId: senderPrincipalId
    principalType: 'ServicePrincipal'
  }
}

resource communicationDiagnostics 'Microsoft.Insights/diagnosticSettings@2021-05-01-preview' = {
  name: 'to-log-analytics'
  scope: communicationService
  properties: {
    workspaceId: logAnalyticsWorkspaceId
    logs: [
      {
        categoryGroup: 'allLogs'
        enabled: true
      }
    ]
  }
}

output name string = communicationService.name
output endpoint string = 'https://${communicationService.properties.hostName}'
output senderAddress string = '${sender.properties.username}@${domain.properties.mailFromSenderDomain}'
