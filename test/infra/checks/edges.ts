/**
 * The rest of the review (issue 36, item 7): the network's edges (a security group on each subnet; a NAT gateway with
 * one static address for the calls to SIEX; a hub's privatelink zones usable by id), no cloud's domain written in a
 * template, a monthly budget, and Entra ID issuing the backend's tokens to API Management alone.
 */
import { getProperty, literalValue } from '../bicep';
import { Finding, Infra, moduleTarget, rel, resourcesOfType } from './model';

function finding(file: string, message: string): Finding {
  return { check: 'edges', file, message };
}

export function checkEdges(infra: Infra): Finding[] {
  return [...checkNetworkEdges(infra), ...checkCloudDomains(infra), ...checkBudget(infra), ...checkAppRoles(infra)];
}

function checkNetworkEdges(infra: Infra): Finding[] {
  const main = infra.main;
  const module = main?.modules.find((m) => m.symbol === 'network');
  const file = module && main ? moduleTarget(infra, main, module.source) : undefined;
  if (!main || !file) return [];
  const out: Finding[] = [];
  const at = rel(infra, file.file);
  const vnet = file.resources.find((r) => r.typeAndVersion.startsWith('Microsoft.Network/virtualNetworks@'));
  const subnets =
    getProperty(vnet?.body, 'properties', 'subnets')?.namedChildren.filter((n) => n.type === 'object') ?? [];
  for (const subnet of subnets) {
    const name = getProperty(subnet, 'name')?.text ?? '?';
    const nsg = getProperty(subnet, 'properties', 'networkSecurityGroup', 'id')?.text ?? '';
    if (
      !file.resources.some(
        (r) => r.typeAndVersion.startsWith('Microsoft.Network/networkSecurityGroups@') && nsg === `${r.symbol}.id`,
      )
    )
      out.push(finding(at, `subnet ${name} needs a network security group of this file`));
  }
  const app = subnets.find((s) => /delegations/.test(s.text));
  const nat = file.resources.find((r) => r.typeAndVersion.startsWith('Microsoft.Network/natGateways@'));
  const ip = file.resources.find((r) => r.typeAndVersion.startsWith('Microsoft.Network/publicIPAddresses@'));
  if (
    !nat ||
    !ip ||
    getProperty(app, 'properties', 'natGateway', 'id')?.text !== `${nat.symbol}.id` ||
    literalValue(getProperty(ip.body, 'properties', 'publicIPAllocationMethod')) !== 'Static'
  )
    out.push(
      finding(at, "the app's subnet must leave through a NAT gateway with a static public address (what SIEX sees)"),
    );
  if (
    getProperty(module?.body, 'params', 'privateDnsZoneIds')?.text !== 'privateDnsZoneIds' ||
    !main.params.has('privateDnsZoneIds')
  )
    out.push(
      finding(
        'infra/main.bicep',
        'existing privatelink DNS zones must be a parameter (privateDnsZoneIds) passed to module network',
      ),
    );
  return out;
}

/** Endpoints come from the resources (primaryEndpoints) or environment().suffixes, whatever the cloud. */
function checkCloudDomains(infra: Infra): Finding[] {
  const out: Finding[] = [];
  for (const file of infra.files.values())
    for (const m of file.source.matchAll(/core\.windows\.net/g))
      out.push(
        finding(
          rel(infra, file.file),
          `'core.windows.net' at offset ${m.index}: take the endpoint from the resource or environment().suffixes`,
        ),
      );
  return out;
}

function checkBudget(infra: Infra): Finding[] {
  const budgets = resourcesOfType(infra, 'Microsoft.Consumption/budgets');
  const notified = budgets.some(({ resource }) => /contactGroups|contactEmails/.test(resource.node.text));
  return notified
    ? []
    : [finding('infra', 'a monthly budget (Microsoft.Consumption/budgets) that e-mails the operators is missing')];
}

/** Entra ID gives tokens for the backend's audience only to principals assigned a role: API Management's identity. */
function checkAppRoles(infra: Infra): Finding[] {
  const [sp] = resourcesOfType(infra, 'Microsoft.Graph/servicePrincipals');
  if (!sp) return [];
  const out: Finding[] = [];
  const at = rel(infra, sp.file.file);
  if (literalValue(getProperty(sp.resource.body, 'appRoleAssignmentRequired')) !== true)
    out.push(finding(at, `${sp.resource.symbol}: appRoleAssignmentRequired must be true, or its reason recorded here`));
  const assignments = resourcesOfType(infra, 'Microsoft.Graph/appRoleAssignedTo');
  const apim = infra.main?.modules
    .find((m) => moduleTarget(infra, infra.main!, m.source) === sp.file)
    ?.body?.text.includes('identities.outputs.apimPrincipalId');
  if (assignments.length !== 1 || !apim)
    out.push(finding(at, "API Management's identity, and only it, must be assigned the backend's app role"));
  return out;
}
