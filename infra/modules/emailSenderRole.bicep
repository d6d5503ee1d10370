// The custom role the function app sends e-mail with, in a deployment of its own: main.bicep assigns it only after
// this module has finished, so the assignment never races the definition ("RoleDefinitionDoesNotExist" on a first
// provision). The actions are those Microsoft documents for sending e-mail with an Entra ID identity ("Use a custom
// role to limit permissions"): read the service, and the two writes the send operation is authorized against. No
// ListKeys, no RegenerateKey, nothing on domains or sender usernames.

// Where the role may be assigned: this resource group only.
var roleScope = resourceGroup().id

resource emailSenderRole 'Microsoft.Authorization/roleDefinitions@2022-04-01' = {
  name: guid(resourceGroup().id, 'siex-gateway-email-sender')
  properties: {
    roleName: 'SIEX gateway e-mail sender (${resourceGroup().name})'
    description: 'Send e-mail through the Communication Service of this resource group. Nothing else.'
    type: 'CustomRole'
    assignableScopes: [
      roleScope
    ]
    permissions: [
      {
        actions: [
          'Microsoft.Communication/CommunicationServices/Read'
          'Microsoft.Communication/CommunicationServices/Write'
          'Microsoft.Communication/EmailServices/write'
        ]
        notActions: []
        dataActions: []
        notDataActions: []
      }
    ]
  }
}

// Custom role definitions live at the subscription whatever scope created them; this is the id assignments use.
output roleDefinitionId string = subscriptionResourceId('Microsoft.Authorization/roleDefinitions', emailSenderRole.name)
