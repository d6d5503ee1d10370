// The sandbox profile's SIEX (docs/sandbox.md): the project's SIEX simulator (local/siex-simulator) as a Function App
// of its own on a Flex Consumption plan, so the gateway's exports finish, fail and retry as against SIEX while nothing
// reaches FEGA. Its package is local/siex-simulator/function-app.ts bundled by local/build-package.ts (dist/deploy-siex),
// deployed by azd as the service `siex` (azure.yaml).
//
// One instance at most: the simulator keeps the simulated notebook and the pending requests in memory, and two
// instances would be two SIEXes answering one gateway. The IUWS endpoints are anonymous to the host, as SIEX's are
// (comunicacion checks the user and password); the knobs and the inspection endpoints (_control, _inspect) take a
// function key, because on the internet they would let anyone change the sandbox's SIEX.
//
// Its host storage is an account of its own, so the simulator's identity holds no role on the
// gateway's host account or its package. Its comunicacion password is the vault's siex-password, the secret the gateway
// reads too: one secret, so the two always agree (the sandbox's postprovision step creates it).

@description('Function app name.')
param name string

@description('Flex Consumption plan name (one app per plan).')
param planName string

@description('Azure region.')
param location string

@description('Tags applied to every resource.')
param tags object

@description('The simulator\'s host account (3-24 lowercase letters and digits): its blobs (function keys, locks) and the deployment package.')
@minLength(3)
@maxLength(24)
param hostStorageAccountName string

@description('Blob container of the deployment package, in the host account.')
param deploymentContainerName string

@description('Log Analytics workspace that receives the app\'s and its account\'s logs.')
param logAnalyticsWorkspaceId string

@description('Key Vault holding siex-password, the secret both the gateway and the simulator read.')
param keyVaultName string

@description('Resource id of the simulator\'s user-assigned identity.')
param identityId string

@description('Client id of the simulator\'s identity (the host selects the identity by it).')
param identityClientId string

@description('Principal id of the simulator\'s identity, which the vault role names.')
param identityPrincipalId string

@description('The user the simulator\'s comunicacion accepts (the gateway\'s siex-username secret holds the same).')
param username string

var roles = {
  blobDataOwner: 'b7e6dc6d-f1e8-4753-8033-0f276bb0955b'
  keyVaultSecretsUser: '4633458b-17de-408a-b874-0445c86b69e6'
}

// As the gateway's host account (hostStorage.bicep), less the private network a sandbox does not have.
resource hostStorage 'Microsoft.Storage/storageAccounts@2026-04-01' = {
  name: hostStorageAccountName
  location: location
  tags: tags
  kind: 'StorageV2'
  sku: {
    name: 'Standard_LRS'
  }
  properties: {
    accessTier: 'Hot'
    minimumTlsVersion: 'TLS1_2'
    supportsHttpsTrafficOnly: true
    allowBlobPublicAccess: false
    allowSharedKeyAccess: false
    defaultToOAuthAuthentication: true
    publicNetworkAccess: 'Enabled'
    networkAcls: {
      defaultAction: 'Allow'
      bypass: 'AzureServices'
    }
  }
}

resource blobService 'Microsoft.Storage/storageAccounts/blobServices@2026-04-01' = {
  parent: hostStorage
  name: 'default'
}

resource deploymentContainer 'Microsoft.Storage/storageAccounts/blobServices/containers@2026-04-01' = {
  parent: blobService
  name: deploymentContainerName
  properties: {
    publicAccess: 'None'
  }
}

resource blobDiagnostics 'Microsoft.Insights/diagnosticSettings@2021-05-01-preview' = {
  name: 'to-log-analytics'
  scope: blobService
  properties: {
    workspaceId: logAnalyticsWorkspaceId
    logs: [
      {
        categoryGroup: 'audit'
        enabled: true
      }
    ]
  }
}

// The host's blobs (function keys, locks) and the package: Blob Data Owner, on this account only.
resource blobOwner 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(hostStorage.id, identityId, roles.blobDataOwner)
  scope: hostStorage
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.blobDataOwner)
    principalId: identityPrincipalId
    principalType: 'ServicePrincipal'
  }
}

resource vault 'Microsoft.KeyVault/vaults@2026-02-01' existing = {
  name: keyVaultName
}

resource plan 'Microsoft.Web/serverfarms@2025-03-01' = {
  name: planName
  location: location
  tags: tags
  kind: 'functionapp'
  sku: {
    name: 'FC1'
    tier: 'FlexConsumption'
  }
  properties: {
    reserved: true
    // A sandbox: no zones (and one instance could not spread over them).
    zoneRedundant: false
  }
}

resource site 'Microsoft.Web/sites@2025-03-01' = {
  name: name
  // Its package is read with the identity's role.
  dependsOn: [
    deploymentContainer
    blobOwner
  ]
  location: location
  // azd finds the deployment target of service `siex` (azure.yaml) by this tag.
  tags: union(tags, {
    'azd-service-name': 'siex'
  })
  kind: 'functionapp,linux'
  identity: {
    type: 'UserAssigned'
    userAssignedIdentities: {
      '${identityId}': {}
    }
  }
  properties: {
    serverFarmId: plan.id
    httpsOnly: true
    keyVaultReferenceIdentity: identityId
    siteConfig: {
      minTlsVersion: '1.2'
      scmMinTlsVersion: '1.2'
      appSettings: [
        // The host reaches its account with the identity (no key): its function keys and locks live there.
        {
          name: 'AzureWebJobsStorage__accountName'
          value: hostStorage.name
        }
        {
          name: 'AzureWebJobsStorage__credential'
          value: 'managedidentity'
        }
        {
          name: 'AzureWebJobsStorage__clientId'
          value: identityClientId
        }
        // Read by local/siex-simulator/function-app.ts.
        {
          name: 'SIMULATOR_USERNAME'
          value: username
        }
        {
          name: 'SIMULATOR_PASSWORD'
          value: '@Microsoft.KeyVault(VaultName=${vault.name};SecretName=siex-password)'
        }
      ]
    }
    functionAppConfig: {
      deployment: {
        storage: {
          type: 'blobContainer'
          value: '${hostStorage.properties.primaryEndpoints.blob}${deploymentContainerName}'
          authentication: {
            type: 'UserAssignedIdentity'
            userAssignedIdentityResourceId: identityId
          }
        }
      }
      scaleAndConcurrency: {
        // The simulator's state is in memory: one SIEX, never two.
        maximumInstanceCount: 1
        instanceMemoryMB: 512
      }
      runtime: {
        name: 'node'
        version: '22'
      }
    }
  }
}

// Deployments (azd deploy) authenticate with Entra ID; user name and password publishing is off.
resource scmBasicAuth 'Microsoft.Web/sites/basicPublishingCredentialsPolicies@2025-03-01' = {
  parent: site
  name: 'scm'
  properties: {
    allow: false
  }
}

// The site's child resources each write the site: one after the other (functionApp.bicep says why).
resource ftpBasicAuth 'Microsoft.Web/sites/basicPublishingCredentialsPolicies@2025-03-01' = {
  parent: site
  name: 'ftp'
  dependsOn: [
    scmBasicAuth
  ]
  properties: {
    allow: false
  }
}

resource functionLogs 'Microsoft.Insights/diagnosticSettings@2021-05-01-preview' = {
  name: 'to-log-analytics'
  scope: site
  dependsOn: [
    ftpBasicAuth
  ]
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

// siex-password, through the app's Key Vault reference. At the vault, as the gateway's role is: the secrets do not
// exist when the templates run.
resource secretsUser 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(vault.id, identityId, roles.keyVaultSecretsUser)
  scope: vault
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.keyVaultSecretsUser)
    principalId: identityPrincipalId
    principalType: 'ServicePrincipal'
  }
}

output name string = site.name
output defaultHostName string = site.properties.defaultHostName
