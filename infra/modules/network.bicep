// The private data plane (main.bicep vnetEnabled, on in production), after the Flex Consumption quickstart
// (Azure-Samples/functions-quickstart-typescript-azd, vnetEnabled): a virtual network with a subnet the function app
// integrates with (delegated to Microsoft.App/environments, as Flex requires) and a subnet for private endpoints; a
// private endpoint per storage service the app uses (every data account's tables, the first data account's queues, the
// host account's and the backup account's blobs) and one for Key Vault, each registered in its privatelink DNS zone
// linked to the network, so the app resolves those accounts to private addresses. Flex routes all the app's outbound
// traffic through the integration subnet, Key Vault reference resolution included.
//
// Each subnet has a network security group: the endpoints' subnet admits HTTPS from the app's subnet only; the app's
// subnet sends HTTPS only (SIEX, Entra ID, telemetry, e-mail, the endpoints). The app's subnet leaves through a NAT
// gateway with one static public address, the address SIEX sees every call from, which FEGA can admit by name
// (main.bicep output AZURE_SIEX_EGRESS_IP). A network whose DNS is a hub's passes that hub's privatelink zones
// (privateDnsZoneIds) and gets none of its own.

@description('Virtual network name.')
param name string

@description('Azure region.')
param location string

@description('Tags applied to every resource.')
param tags object

@description('''The data accounts, the first first: each one's tables, and the first's queues (the only queues the app
uses: main.bicep dataAccountCount).''')
@minLength(1)
param dataAccountNames array

@description('The host account (its blobs and the deployment package).')
param hostAccountName string

@description('The backup account (blobs).')
param backupAccountName string

@description('The Key Vault.')
param keyVaultName string

@description('''Existing privatelink DNS zones to register the endpoints in, by group (blob, queue, table, vault): their resource
ids, for a network whose DNS is a hub's. A group not given gets a zone of its own here, linked to this network.''')
param privateDnsZoneIds object = {}

var appSubnetName = 'app'
var endpointSubnetName = 'private-endpoints'
var addresses = {
  network: '10.0.0.0/16'
  endpoints: '10.0.1.0/24'
  app: '10.0.2.0/24'
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

// The privatelink zone of each group (sub-resource) the endpoints expose.
var zoneOfGroup = {
  table: 'privatelink.table.${environment().suffixes.storage}'
  queue: 'privatelink.queue.${environment().suffixes.storage}'
  blob: 'privatelink.blob.${environment().suffixes.storage}'
  vault: 'privatelink.vaultcore.azure.net'
}

// Every data account's tables, each through an endpoint of its own in the same subnet and zone. Only the first holds
// queues: the others' queue services are never called, and with public access off nothing else reaches them.
var tableEndpoints = [
  for account in dataAccountNames: {
    name: 'table-${account}'
    target: resourceId('Microsoft.Storage/storageAccounts', account)
    group: 'table'
  }
]
// Each private endpoint: the resource and the sub-resource (group id) it exposes.
var endpoints = concat(tableEndpoints, [
  {
    name: 'queue-${dataAccountNames[0]}'
    target: resourceId('Microsoft.Storage/storageAccounts', dataAccountNames[0])
    group: 'queue'
  }
  {
    name: 'blob-${hostAccountName}'
    target: hostAccount.id
    group: 'blob'
  }
  {
    name: 'blob-${backupAccountName}'
    target: backupAccount.id
    group: 'blob'
  }
  {
    name: 'vault-${keyVaultName}'
    target: vault.id
    group: 'vault'
  }
])
// The zones made here: those of the groups no existing zone was given for.
var zoneNames = map(filter(items(zoneOfGroup), g => !contains(privateDnsZoneIds, g.key)), g => g.value)
var zoneIdOf = toObject(
  items(zoneOfGroup),
  g => g.key,
  g => contains(privateDnsZoneIds, g.key)
    ? privateDnsZoneIds[g.key]
    : resourceId('Microsoft.Network/privateDnsZones', g.value)
)

// HTTPS in from the app's subnet only; the platform's own rules allow the rest of the network otherwise.
resource endpointRules 'Microsoft.Network/networkSecurityGroups@2025-09-01' = {
  name: '${name}-${endpointSubnetName}'
  location: location
  tags: tags
  properties: {
    securityRules: [
      {
        name: 'https-from-app'
        properties: {
          description: 'The function app reaches storage and Key Vault over HTTPS.'
          priority: 100
          direction: 'Inbound'
          access: 'Allow'
          protocol: 'Tcp'
          sourceAddressPrefix: addresses.app
          sourcePortRange: '*'
          destinationAddressPrefix: addresses.endpoints
          destinationPortRange: '443'
        }
      }
      {
        name: 'nothing-else-in'
        properties: {
          description: 'No other address of the network reaches the endpoints.'
          priority: 4000
          direction: 'Inbound'
          access: 'Deny'
          protocol: '*'
          sourceAddressPrefix: 'VirtualNetwork'
          sourcePortRange: '*'
          destinationAddressPrefix: '*'
          destinationPortRange: '*'
        }
      }
    ]
  }
}

// The app sends HTTPS and nothing else: SIEX (IUWS), Entra ID, telemetry and e-mail outside, the endpoints inside.
resource appRules 'Microsoft.Network/networkSecurityGroups@2025-09-01' = {
  name: '${name}-${appSubnetName}'
  location: location
  tags: tags
  properties: {
    securityRules: [
      {
        name: 'https-out'
        properties: {
          description: 'SIEX, Entra ID, Azure Monitor, Communication Services, the private endpoints.'
          priority: 100
          direction: 'Outbound'
          access: 'Allow'
          protocol: 'Tcp'
          sourceAddressPrefix: addresses.app
          sourcePortRange: '*'
          destinationAddressPrefix: '*'
          destinationPortRange: '443'
        }
      }
      {
        name: 'nothing-else-out'
        properties: {
          description: 'No plain HTTP, SMTP or any other port leaves the app.'
          priority: 4000
          direction: 'Outbound'
          access: 'Deny'
          protocol: '*'
          sourceAddressPrefix: addresses.app
          sourcePortRange: '*'
          destinationAddressPrefix: 'Internet'
          destinationPortRange: '*'
        }
      }
    ]
  }
}

// The one address the app's calls to SIEX leave from.
resource egressAddress 'Microsoft.Network/publicIPAddresses@2025-09-01' = {
  name: '${name}-egress'
  location: location
  tags: tags
  sku: {
    name: 'Standard'
    tier: 'Regional'
  }
  properties: {
    publicIPAllocationMethod: 'Static'
    publicIPAddressVersion: 'IPv4'
  }
}

resource egress 'Microsoft.Network/natGateways@2025-09-01' = {
  name: '${name}-egress'
  location: location
  tags: tags
  sku: {
    name: 'Standard'
  }
  properties: {
    idleTimeoutInMinutes: 4
    publicIpAddresses: [
      {
        id: egressAddress.id
      }
    ]
  }
}

resource vnet 'Microsoft.Network/virtualNetworks@2025-09-01' = {
  name: name
  location: location
  tags: tags
  properties: {
    addressSpace: {
      addressPrefixes: [
        addresses.network
      ]
    }
    subnets: [
      {
        name: endpointSubnetName
        properties: {
          addressPrefix: addresses.endpoints
          // Enabled: the subnet's security group applies to the endpoints' traffic (it does not while Disabled).
          privateEndpointNetworkPolicies: 'Enabled'
          privateLinkServiceNetworkPolicies: 'Enabled'
          networkSecurityGroup: {
            id: endpointRules.id
          }
        }
      }
      {
        name: appSubnetName
        properties: {
          addressPrefix: addresses.app
          privateEndpointNetworkPolicies: 'Disabled'
          privateLinkServiceNetworkPolicies: 'Enabled'
          networkSecurityGroup: {
            id: appRules.id
          }
          natGateway: {
            id: egress.id
          }
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
            privateDnsZoneId: zoneIdOf[endpoint.group]
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
output egressIp string = egressAddress.properties.ipAddress
