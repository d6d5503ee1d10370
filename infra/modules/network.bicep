// The private data plane (main.bicep vnetEnabled, on in production), after the Flex Consumption quickstart
// (Azure-Samples/functions-quickstart-typescript-azd, vnetEnabled): a virtual network with a subnet the function app
// integrates with (delegated to Microsoft.App/environments, as Flex requires) and a subnet for private endpoints; a
// private endpoint per storage service the app uses (the data account's tables and queues, the host account's and
// the backup account's blobs) and one for Key Vault, each registered in its privatelink DNS zone linked to the
// network, so the app resolves those accounts to private addresses. Flex routes all the app's outbound traffic
// through the integration subnet, Key Vault reference resolution included.

@description('Virtual network name.')
param name string

@description('Azure region.')
param location string

@description('Tags applied to every resource.')
param tags object

@description('The data account (tables and queues).')
param dataAccountName string

@description('The host account (its blobs and the deployment package).')
param hostAccountName string

@description('The backup account (blobs).')
param backupAccountName string

@description('The Key Vault.')
param keyVaultName string

var appSubnetName = 'app'
var endpointSubnetName = 'private-endpoints'

resource dataAccount 'Microsoft.Storage/storageAccounts@2026-04-01' existing = {
  name: dataAccountName
}

resource hostAccount 'Microsoft.Storage/storageAccounts@2026-04-01' existing = {
  name: hostAccountName
}

resource backupAccount 'Microsoft.Storage/storageAccounts@2026-04-01' existing = {
  name: backupAccountName
}

resource vault 'Microsoft.KeyVault/vaults@2026-02-01' existing = {
  name: keyVaultName
}

// Each private endpoint: the resource, the sub-resource (group id) it exposes, and the privatelink zone of that group.
var endpoints = [
  {
    name: 'table-${dataAccountName}'
    target: dataAccount.id
    group: 'table'
    zone: 'privatelink.table.${environment().suffixes.storage}'
  }
  {
    name: 'queue-${dataAccountName}'
    target: dataAccount.id
    group: 'queue'
    zone: 'privatelink.queue.${environment().suffixes.storage}'
  }
  {
    name: 'blob-${hostAccountName}'
    target: hostAccount.id
    group: 'blob'
    zone: 'privatelink.blob.${environment().suffixes.storage}'
  }
  {
    name: 'blob-${backupAccountName}'
    target: backupAccount.id
    group: 'blob'
    zone: 'privatelink.blob.${environment().suffixes.storage}'
  }
  {
    name: 'vault-${keyVaultName}'
    target: vault.id
    group: 'vault'
    zone: 'privatelink.vaultcore.azure.net'
  }
]
var zoneNames = union(map(endpoints, e => e.zone), [])

resource vnet 'Microsoft.Network/virtualNetworks@2025-09-01' = {
  name: name
  location: location
  tags: tags
  properties: {
    addressSpace: {
      addressPrefixes: [
        '10.0.0.0/16'
      ]
    }
    subnets: [
      {
        name: endpointSubnetName
        properties: {
          addressPrefix: '10.0.1.0/24'
          privateEndpointNetworkPolicies: 'Disabled'
          privateLinkServiceNetworkPolicies: 'Enabled'
        }
      }
      {
        name: appSubnetName
        properties: {
          addressPrefix: '10.0.2.0/24'
          privateEndpointNetworkPolicies: 'Disabled'
          privateLinkServiceNetworkPolicies: 'Enabled'
          delegations: [
            {
              name: 'flex-consumption'
              properties: {
                serviceName: 'Microsoft.App/environments'
              }
            }
          ]
        }
      }
    ]
  }
}

resource zones 'Microsoft.Network/privateDnsZones@2024-06-01' = [
  for zone in zoneNames: {
    name: zone
    location: 'global'
    tags: tags
  }
]

resource zoneLinks 'Microsoft.Network/privateDnsZones/virtualNetworkLinks@2024-06-01' = [
  for (zone, i) in zoneNames: {
    parent: zones[i]
    name: '${name}-link'
    location: 'global'
    tags: tags
    properties: {
      registrationEnabled: false
      virtualNetwork: {
        id: vnet.id
      }
    }
  }
]

resource privateEndpoints 'Microsoft.Network/privateEndpoints@2025-09-01' = [
  for endpoint in endpoints: {
    name: 'pe-${endpoint.name}'
    location: location
    tags: tags
    properties: {
      subnet: {
        id: resourceId('Microsoft.Network/virtualNetworks/subnets', vnet.name, endpointSubnetName)
      }
      privateLinkServiceConnections: [
        {
          name: endpoint.name
          properties: {
            privateLinkServiceId: endpoint.target
            groupIds: [
              endpoint.group
            ]
          }
        }
      ]
    }
  }
]

resource zoneGroups 'Microsoft.Network/privateEndpoints/privateDnsZoneGroups@2025-09-01' = [
  for (endpoint, i) in endpoints: {
    parent: privateEndpoints[i]
    name: 'default'
    properties: {
      privateDnsZoneConfigs: [
        {
          name: endpoint.group
          properties: {
            privateDnsZoneId: resourceId('Microsoft.Network/privateDnsZones', endpoint.zone)
          }
        }
      ]
    }
    dependsOn: [
      zones
    ]
  }
]

output appSubnetId string = resourceId('Microsoft.Network/virtualNetworks/subnets', vnet.name, appSubnetName)
