/** API Management policies: well-formed, loaded by the templates, and the rules of docs/architecture.md. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { getProperty, literalValue } from '../bicep';
import { allElements, child, deepText, parseXml, XmlElement, xmlWellFormedError } from '../xml';
import {
  APIM_CLIENT_ID_NAMED_VALUE,
  BACKEND_APP_NAMED_VALUE,
  FUNCTION_KEY_HEADER,
  IDENTITY_HEADER,
  MAX_BODY_BYTES,
  PROBLEM_TYPE_PREFIX,
  RATE_LIMIT,
  SID_HEADER,
  SUBSCRIPTION_KEY_HEADER,
  SUBSCRIPTION_KEY_QUERY,
} from './contract';
import { CheckContext, Finding, Infra, loadedFile, rel, Resource, resourceBySymbol, resourcesOfType } from './model';

type PolicyFile = { file: string; root: XmlElement };

interface PolicyFiles {
  global?: PolicyFile;
  /** The client API's (imported from infra/openapi.json). */
  api?: PolicyFile;
  /** Other APIs' (the availability monitor's, apim.bicep): the gateway's rules without the clients' SID key. */
  others: PolicyFile[];
}

/** Whether an API resource is the client API: the one imported from the OpenAPI document. */
const isClientApi = (api: Resource | undefined) =>
  literalValue(getProperty(api?.body, 'properties', 'format')) === 'openapi+json';

/** Well-formed XML, each file loaded by a template, and the rules of docs/architecture.md, "Identity and access". */
export function checkPolicies(infra: Infra, errorCodes: CheckContext['errorCodes']): Finding[] {
  const out: Finding[] = [];
  const policyDir = path.join(infra.dir, 'policies');
  const xmlFiles = fs.existsSync(policyDir)
    ? fs
        .readdirSync(policyDir)
        .filter((n) => n.endsWith('.xml'))
        .sort()
    : [];
  const parsed = new Map<string, XmlElement>();
  for (const name of xmlFiles) {
    const full = path.join(policyDir, name);
    const xml = fs.readFileSync(full, 'utf8');
    const error = xmlWellFormedError(xml);
    if (error) {
      out.push({ check: 'policies', file: `infra/policies/${name}`, message: `not well-formed XML: ${error}` });
      continue;
    }
    const root = parseXml(xml);
    if (root.name !== 'policies')
      out.push({
        check: 'policies',
        file: `infra/policies/${name}`,
        message: `root element must be <policies>, is <${root.name}>`,
      });
    parsed.set(path.resolve(full), root);
  }

  // Which file is loaded where.
  const loadedBy = (type: string) =>
    resourcesOfType(infra, type).map(({ file, resource }) => ({
      file,
      loaded: loadedFile(file, getProperty(resource.body, 'properties', 'value')),
      resource,
    }));
  const roles: PolicyFiles = { others: [] };
  const policyFile = (found: ReturnType<typeof loadedBy>[number]): PolicyFile | undefined => {
    const { file, loaded, resource } = found;
    if (literalValue(getProperty(resource.body, 'properties', 'format')) !== 'xml')
      out.push({
        check: 'policies',
        file: rel(infra, file.file),
        message: `${resource.symbol}: format must be 'xml' (the file is checked as well-formed XML)`,
      });
    const root = loaded ? parsed.get(loaded) : undefined;
    if (!loaded)
      out.push({
        check: 'policies',
        file: rel(infra, file.file),
        message: `${resource.symbol}: value must be loadTextContent of a policies/*.xml file`,
      });
    return loaded && root ? { file: rel(infra, loaded), root } : undefined;
  };
  const globals = loadedBy('Microsoft.ApiManagement/service/policies');
  if (globals.length !== 1)
    out.push({
      check: 'policies',
      file: 'infra',
      message: `expected one Microsoft.ApiManagement/service/policies resource, found ${globals.length}`,
    });
  else roles.global = policyFile(globals[0]);
  const apiPolicies = loadedBy('Microsoft.ApiManagement/service/apis/policies').map((found) => ({
    found,
    api: resourceBySymbol(found.file, getProperty(found.resource.body, 'parent')?.text ?? ''),
  }));
  const client = apiPolicies.filter((p) => isClientApi(p.api));
  if (client.length !== 1)
    out.push({
      check: 'policies',
      file: 'infra',
      message: `expected one Microsoft.ApiManagement/service/apis/policies resource of the client API, found ${client.length}`,
    });
  else roles.api = policyFile(client[0].found);
  for (const other of apiPolicies.filter((p) => !isClientApi(p.api))) {
    const policy = policyFile(other.found);
    if (policy) roles.others.push(policy);
  }
  const used = new Set([roles.global?.file, roles.api?.file, ...roles.others.map((o) => o.file)]);
  for (const name of xmlFiles)
    if (!used.has(`infra/policies/${name}`) && parsed.has(path.resolve(policyDir, name)))
      out.push({ check: 'policies', file: `infra/policies/${name}`, message: 'not loaded by any policy resource' });

  if (roles.global) out.push(...checkGlobalPolicy(roles.global.file, roles.global.root));
  if (roles.api) out.push(...checkApiPolicy(roles.api.file, roles.api.root, roles.global?.root, true));
  for (const other of roles.others) out.push(...checkApiPolicy(other.file, other.root, roles.global?.root, false));
  const all = [roles.global, roles.api, ...roles.others];
  for (const role of all) if (role) out.push(...checkProblemResponses(role.file, role.root, errorCodes));

  // Every {{named value}} a policy uses is defined.
  const defined = new Set(
    resourcesOfType(infra, 'Microsoft.ApiManagement/service/namedValues').map(({ resource }) =>
      String(literalValue(getProperty(resource.body, 'properties', 'displayName'))),
    ),
  );
  for (const role of all) {
    if (!role) continue;
    for (const el of allElements(role.root))
      for (const m of deepTextOwn(el).matchAll(/\{\{([^}]+)\}\}/g))
        if (!defined.has(m[1]))
          out.push({
            check: 'policies',
            file: role.file,
            message: `named value {{${m[1]}}} is not defined in the templates`,
          });
  }
  return out;
}

function deepTextOwn(el: XmlElement): string {
  return [...Object.values(el.attrs), el.text].join(' ');
}

function section(root: XmlElement, name: string): XmlElement | undefined {
  return child(root, name);
}

function checkGlobalPolicy(file: string, root: XmlElement): Finding[] {
  const out: Finding[] = [];
  const forward = child(section(root, 'backend'), 'forward-request');
  if (!forward)
    out.push({
      check: 'policies',
      file,
      message: 'the service-scope <backend> must <forward-request>, or no call reaches the app',
    });
  else if (forward.attrs.timeout !== '30')
    out.push({ check: 'policies', file, message: "forward-request timeout must be 30 (the spec's response time-out)" });
  const onError = section(root, 'on-error');
  const handled = (predicate: (condition: string) => boolean, status: string) =>
    allElements(onError ?? root).some(
      (el) =>
        el.name === 'when' && predicate(el.attrs.condition ?? '') && statusOf(child(el, 'return-response')) === status,
    );
  if (!handled((c) => c.includes('SubscriptionKeyNotFound'), '401'))
    out.push({ check: 'policies', file, message: 'on-error must answer SubscriptionKeyNotFound with 401' });
  if (!handled((c) => c.includes('SubscriptionKeyInvalid'), '401'))
    out.push({ check: 'policies', file, message: 'on-error must answer SubscriptionKeyInvalid with 401' });
  if (!handled((c) => c.includes('"rate-limit"') || c.includes('RateLimitExceeded'), '429'))
    out.push({ check: 'policies', file, message: 'on-error must answer the rate limit with 429' });
  const rateBranch = allElements(onError ?? root).find(
    (el) => el.name === 'when' && /rate-limit|RateLimitExceeded/.test(el.attrs.condition ?? ''),
  );
  const retryAfter =
    rateBranch &&
    allElements(rateBranch).find((el) => el.name === 'set-header' && el.attrs.name?.toLowerCase() === 'retry-after');
  if (!retryAfter) out.push({ check: 'policies', file, message: 'the 429 answer must set Retry-After' });
  if (!allElements(onError ?? root).some((el) => el.name === 'otherwise' && child(el, 'return-response')))
    out.push({
      check: 'policies',
      file,
      message: 'on-error needs an <otherwise> problem response for every other gateway error',
    });
  return out;
}

/**
 * An API's policy: the gateway's rules (the service policy kept, the rate limit, no key in a URL nor to the backend, the
 * caller's subscription id, API Management's token); the client API's also the clients' (a SID key, 1 MB).
 */
function checkApiPolicy(
  file: string,
  root: XmlElement,
  globalRoot: XmlElement | undefined,
  clients: boolean,
): Finding[] {
  const out: Finding[] = [];
  for (const name of ['inbound', 'backend', 'outbound', 'on-error']) {
    const s = section(root, name);
    if (!s || !s.children.some((c) => c.name === 'base'))
      out.push({
        check: 'policies',
        file,
        message: `<${name}> must include <base /> (or the service-scope policy is skipped)`,
      });
  }
  const inbound = section(root, 'inbound');
  const els = inbound ? allElements(inbound) : [];

  const rate = els.filter((el) => el.name === 'rate-limit');
  if (rate.length !== 1)
    out.push({ check: 'policies', file, message: `expected one <rate-limit> in <inbound>, found ${rate.length}` });
  else {
    if (rate[0].attrs.calls !== RATE_LIMIT.calls || rate[0].attrs['renewal-period'] !== RATE_LIMIT.renewalPeriod)
      out.push({
        check: 'policies',
        file,
        message: `rate-limit must be calls="${RATE_LIMIT.calls}" renewal-period="${RATE_LIMIT.renewalPeriod}", is calls="${rate[0].attrs.calls}" renewal-period="${rate[0].attrs['renewal-period']}"`,
      });
    const variable = rate[0].attrs['retry-after-variable-name'];
    if (!variable)
      out.push({
        check: 'policies',
        file,
        message: 'rate-limit needs retry-after-variable-name (the 429 answer reads it for Retry-After)',
      });
    else if (globalRoot && !deepText(globalRoot).includes(`"${variable}"`))
      out.push({ check: 'policies', file, message: `the 429 answer does not read the variable '${variable}'` });
  }

  // 401 for a subscription key in the query string: keys travel in headers only, never in URLs that get logged.
  const queryKeyBranch = els.find(
    (el) =>
      el.name === 'when' &&
      new RegExp(`OriginalUrl\\.Query[\\s\\S]*"${SUBSCRIPTION_KEY_QUERY}"`).test(el.attrs.condition ?? '') &&
      statusOf(child(el, 'return-response')) === '401',
  );
  if (!queryKeyBranch)
    out.push({
      check: 'policies',
      file,
      message: `a ${SUBSCRIPTION_KEY_QUERY} query parameter must be answered 401 (the key is accepted only in ${SUBSCRIPTION_KEY_HEADER})`,
    });

  if (clients) out.push(...checkClientRules(file, els));
  out.push(...checkBackendHeaders(file, root, els));
  return out;
}

/** The client API's own rules: 401 without the SID key, 413 over 1 MB. */
function checkClientRules(file: string, els: XmlElement[]): Finding[] {
  const out: Finding[] = [];
  // 401 without the SID key.
  const sidBranch = els.find((el) => el.name === 'when' && (el.attrs.condition ?? '').includes(SID_HEADER));
  const checkHeader = els.find(
    (el) => el.name === 'check-header' && el.attrs.name === SID_HEADER && el.attrs['failed-check-httpcode'] === '401',
  );
  if (!checkHeader && (!sidBranch || statusOf(child(sidBranch, 'return-response')) !== '401'))
    out.push({ check: 'policies', file, message: `a missing ${SID_HEADER} must be answered 401` });

  // 413 over 1 MB.
  const sizeBranch = els.find((el) => el.name === 'when' && statusOf(child(el, 'return-response')) === '413');
  if (!sizeBranch) out.push({ check: 'policies', file, message: 'a body over the size limit must be answered 413' });
  else {
    const condition = sizeBranch.attrs.condition ?? '';
    const numbers = [...condition.matchAll(/\d{4,}/g)].map((m) => Number(m[0]));
    if (!numbers.includes(MAX_BODY_BYTES))
      out.push({
        check: 'policies',
        file,
        message: `the size check must compare with ${MAX_BODY_BYTES} bytes (1 MB), found ${numbers.join(', ') || 'no number'}`,
      });
    const variable = /context\.Variables\["([^"]+)"\]/.exec(condition)?.[1];
    if (variable) {
      const setter = els.find((el) => el.name === 'set-variable' && el.attrs.name === variable);
      if (!setter || !/Content-Length/i.test(setter.attrs.value ?? ''))
        out.push({
          check: 'policies',
          file,
          message: `the size variable '${variable}' must be measured (Content-Length, or the body)`,
        });
    } else if (!/Content-Length|Body/i.test(condition))
      out.push({ check: 'policies', file, message: 'the size check must measure Content-Length or the body' });
  }

  return out;
}

/** What reaches the backend: no subscription key, the caller's subscription id, API Management's token, no function key. */
function checkBackendHeaders(file: string, root: XmlElement, els: XmlElement[]): Finding[] {
  const out: Finding[] = [];
  const setHeader = (name: string) =>
    els.filter((el) => el.name === 'set-header' && el.attrs.name?.toLowerCase() === name.toLowerCase());
  if (!setHeader(SUBSCRIPTION_KEY_HEADER).some((el) => el.attrs['exists-action'] === 'delete'))
    out.push({
      check: 'policies',
      file,
      message: `${SUBSCRIPTION_KEY_HEADER} must be removed before the backend (set-header exists-action="delete")`,
    });
  const identity = setHeader(IDENTITY_HEADER);
  if (
    !identity.some((el) => el.attrs['exists-action'] === 'override' && /context\.Subscription\.Id/.test(deepText(el)))
  )
    out.push({
      check: 'policies',
      file,
      message: `${IDENTITY_HEADER} must be set with exists-action="override" from context.Subscription.Id`,
    });
  // The backend admits only API Management's identity: the token replaces any Authorization the client sent.
  const token = els.find((el) => el.name === 'authentication-managed-identity');
  if (
    !token ||
    token.attrs.resource !== `{{${BACKEND_APP_NAMED_VALUE}}}` ||
    token.attrs['client-id'] !== `{{${APIM_CLIENT_ID_NAMED_VALUE}}}` ||
    token.attrs['output-token-variable-name'] !== undefined ||
    token.attrs['ignore-error'] === 'true'
  )
    out.push({
      check: 'policies',
      file,
      message: `<authentication-managed-identity resource="{{${BACKEND_APP_NAMED_VALUE}}}" client-id="{{${APIM_CLIENT_ID_NAMED_VALUE}}}" /> must set the backend's Authorization header (no output variable, no ignore-error)`,
    });
  if (allElements(root).some((el) => el.name === 'set-header' && el.attrs.name?.toLowerCase() === FUNCTION_KEY_HEADER))
    out.push({
      check: 'policies',
      file,
      message: `${FUNCTION_KEY_HEADER} must not be set: the backend has no key to check, only API Management's token`,
    });
  return out;
}

function statusOf(returnResponse: XmlElement | undefined): string | undefined {
  return child(returnResponse, 'set-status')?.attrs.code;
}

/** Every return-response answers problem details with the app's shape, type URI and error codes. */
function checkProblemResponses(file: string, root: XmlElement, errorCodes: CheckContext['errorCodes']): Finding[] {
  const out: Finding[] = [];
  for (const rr of allElements(root).filter((el) => el.name === 'return-response')) {
    const status = statusOf(rr);
    const label = `return-response ${status ?? '(no status)'}`;
    const contentType = allElements(rr).find(
      (el) => el.name === 'set-header' && el.attrs.name?.toLowerCase() === 'content-type',
    );
    if (child(contentType, 'value')?.text !== 'application/problem+json')
      out.push({ check: 'policies', file, message: `${label}: Content-Type must be application/problem+json` });
    const body = child(rr, 'set-body')?.text ?? '';
    let problem: Record<string, unknown>;
    try {
      problem = JSON.parse(body);
    } catch {
      out.push({ check: 'policies', file, message: `${label}: the body must be static problem-details JSON` });
      continue;
    }
    const keys = Object.keys(problem).sort().join(',');
    if (keys !== 'detail,errors,status,title,type')
      out.push({
        check: 'policies',
        file,
        message: `${label}: body keys must be type, title, status, detail, errors (are ${keys})`,
      });
    if (String(problem.status) !== status)
      out.push({
        check: 'policies',
        file,
        message: `${label}: body status ${String(problem.status)} differs from the response status`,
      });
    if (problem.type !== `${PROBLEM_TYPE_PREFIX}${status}`)
      out.push({ check: 'policies', file, message: `${label}: type must be ${PROBLEM_TYPE_PREFIX}${status}` });
    const errors = Array.isArray(problem.errors) ? (problem.errors as Record<string, unknown>[]) : [];
    if (errors.length === 0)
      out.push({ check: 'policies', file, message: `${label}: errors must list at least one violation` });
    for (const e of errors) {
      if (Object.keys(e).sort().join(',') !== 'code,message,path')
        out.push({ check: 'policies', file, message: `${label}: each error has code, path, message` });
      const known = errorCodes[String(e.code)];
      if (!known)
        out.push({
          check: 'policies',
          file,
          message: `${label}: error code ${String(e.code)} is not in shared/domain/errors.ts`,
        });
      else if (String(known[0]) !== status)
        out.push({
          check: 'policies',
          file,
          message: `${label}: error code ${String(e.code)} is a ${known[0]} code`,
        });
    }
  }
  return out;
}
