// Communication Services e-mail: an Email Communication Service with an Azure-managed domain
// (<guid>.azurecomm.net, no DNS to verify), a sender username, and the Communication Service linked to that domain.

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

resource emailService 'Microsoft.Communication/emailServices@2023-04-01' = {
  name: emailServiceName
  location: 'global'
  tags: tags
  properties: {
    dataLocation: dataLocation
  }
}

resource domain 'Microsoft.Communication/emailServices/domains@2023-04-01' = {
  parent: emailService
  name: 'AzureManagedDomain'
  location: 'global'
  tags: tags
  properties: {
    domainManagement: 'AzureManaged'
    userEngagementTracking: 'Disabled'
  }
}

resource sender 'Microsoft.Communication/emailServices/domains/senderUsernames@2023-04-01' = {
  parent: domain
  name: toLower(senderUsername)
  properties: {
    username: senderUsername
    displayName: senderDisplayName
  }
}

resource communicationService 'Microsoft.Communication/communicationServices@2023-04-01' = {
  name: communicationServiceName
  location: 'global'
  tags: tags
  properties: {
    dataLocation: dataLocation
    linkedDomains: [
      domain.id
    ]
  }
}

output name string = communicationService.name
output endpoint string = 'https://${communicationService.properties.hostName}'
output senderAddress string = '${sender.properties.username}@${domain.properties.mailFromSenderDomain}'
