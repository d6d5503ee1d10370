/**
 * Least privilege: every role assignment of the templates is one of ROLE_GRANTS (contract.ts), for the identity, role
 * and kind of resource it names there, and every grant there exists. So a broader role (Owner on Communication
 * Services), a wider scope (a role at the vault for API Management) or a grant nobody reviewed is a finding. The custom
 * e-mail role may do exactly what sending needs, and may only be assigned in its resource group.
 */
import { getProperty, literalValue } from '../bicep';
import { EMAIL_SENDER_ACTIONS, Principal, PRINCIPALS, ROLE_GRANTS } from './contract';
import { Finding, Infra, rel, RoleAssignment, roleAssignments } from './model';

function principalOf(a: RoleAssignment): Principal | undefined {
  return (Object.keys(PRINCIPALS) as Principal[]).find((p) => PRINCIPALS[p].test(a.principal));
}

function roleOf(a: RoleAssignment): string | undefined {
  return a.customRole ? 'custom:email-sender' : a.roleId;
}

export function checkRoles(infra: Infra): Finding[] {
  const out: Finding[] = [];
  const assignments = roleAssignments(infra);
  for (const a of assignments) {
    const file = rel(infra, a.file.file);
    const principal = principalOf(a);
    const role = roleOf(a);
    if (!principal) {
      out.push({
        check: 'roles',
        file,
        message: `${a.symbol}: grants to '${a.principal}', which is none of the identities of identities.bicep nor the operator`,
      });
      continue;
    }
    if (principal === 'apim' && a.scopeType.toLowerCase().startsWith('microsoft.keyvault/'))
      out.push({
        check: 'roles',
        file,
        message: `${a.symbol}: API Management must hold no Key Vault role (it reads no secret: the backend token comes from its own identity)`,
      });
    const grant = ROLE_GRANTS.find((g) => g.principal === principal && g.role === role);
    if (!grant)
      out.push({
        check: 'roles',
        file,
        message: `${a.symbol}: the ${principal} identity gets role ${role ?? `'${a.symbol}' (unresolved)`}, which is not in the reviewed list (test/infra/checks/contract.ts ROLE_GRANTS)`,
      });
    else if (grant.scope.toLowerCase() !== a.scopeType.toLowerCase())
      out.push({
        check: 'roles',
        file,
        message: `${a.symbol}: ${grant.label} for the ${principal} identity must be scoped to its ${grant.scope}, is scoped to ${a.scopeType}`,
      });
    if (a.customRole) out.push(...checkEmailSenderRole(infra, a));
  }
  for (const g of ROLE_GRANTS)
    if (!assignments.some((a) => principalOf(a) === g.principal && roleOf(a) === g.role))
      out.push({
        check: 'roles',
        file: 'infra',
        message: `the ${g.principal} identity lacks ${g.label} on its ${g.scope}`,
      });
  return out;
}

function checkEmailSenderRole(infra: Infra, a: RoleAssignment): Finding[] {
  const out: Finding[] = [];
  const roleFile = a.customRoleFile ?? a.file;
  const file = rel(infra, roleFile.file);
  const body = a.customRole?.body;
  const permissions = literalValue(getProperty(body, 'properties', 'permissions'));
  const [only] = Array.isArray(permissions) ? (permissions as Record<string, unknown>[]) : [];
  const actions = Array.isArray(only?.actions) ? (only.actions as unknown[]) : [];
  const sorted = (xs: unknown[]) => JSON.stringify(xs.map(String).sort());
  if (!Array.isArray(permissions) || permissions.length !== 1 || sorted(actions) !== sorted(EMAIL_SENDER_ACTIONS))
    out.push({
      check: 'roles',
      file,
      message: `custom role ${a.customRole?.symbol}: actions must be exactly ${EMAIL_SENDER_ACTIONS.join(', ')}`,
    });
  for (const key of ['notActions', 'dataActions', 'notDataActions'])
    if (only && Array.isArray(only[key]) && (only[key] as unknown[]).length > 0)
      out.push({ check: 'roles', file, message: `custom role ${a.customRole?.symbol}: ${key} must be empty` });
  const scopes = getProperty(body, 'properties', 'assignableScopes');
  const scopeTexts = (scopes?.namedChildren ?? [])
    .filter((n) => n.type !== 'comment')
    .map((n) => (n.type === 'identifier' ? (roleFile.vars.get(n.text)?.text ?? n.text) : n.text));
  if (scopeTexts.length !== 1 || scopeTexts[0] !== 'resourceGroup().id')
    out.push({
      check: 'roles',
      file,
      message: `custom role ${a.customRole?.symbol}: assignableScopes must be this resource group only (resourceGroup().id)`,
    });
  return out;
}
