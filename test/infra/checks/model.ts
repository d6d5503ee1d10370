/**
 * What every offline check of infra/ shares: the finding it reports, the inputs it reads (a CheckContext, so the same
 * check runs on the real infra/ and on copies broken on purpose), and the parsed templates with lookups over them.
 */
import * as path from 'node:path';
import type { Node } from 'web-tree-sitter';
import {
  BicepFile,
  bicepFilesUnder,
  callsTo,
  getProperty,
  literalValue,
  NOT_LITERAL,
  parseBicepFile,
  stringValue,
} from '../bicep';

export interface Finding {
  check: string;
  file: string;
  message: string;
}

export function formatFinding(f: Finding): string {
  return `[${f.check}] ${f.file}: ${f.message}`;
}

/** Settings that may be absent from the Bicep, or present without being in the schema; see settings-allowlist.json. */
export interface SettingsAllowlist {
  /** In the schema, optional, read only on a developer machine: not set by the Bicep. */
  localOnly: Record<string, string>;
  /** Not in the schema: read by the Functions host, set by the Bicep. */
  hostOwned: Record<string, string>;
  /**
   * Not in the schema yet: set by the Bicep ahead of the code that will read it (a change split between two branches).
   * Each goes once the schema has it.
   */
  awaitingCode: Record<string, string>;
  /** Not in the schema: read by the Functions host when run locally, listed in local.settings.sample.json. */
  sampleHostOwned: Record<string, string>;
}

/** The part of a zod schema the checks use (kept structural so the checks do not depend on zod's types). */
export interface SettingSchema {
  safeParse(value: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } };
}

export interface VerifiedTypes {
  /** `Provider/type@yyyy-mm-dd` to the file of Azure/bicep-types-az that defines it. */
  azure: Record<string, string>;
  graph: {
    /** The registry reference of the Graph extension the types below were read from. */
    extension: string;
    /** `Microsoft.Graph/type@v1.0` to the file of microsoftgraph/msgraph-bicep-types that defines it. */
    types: Record<string, string>;
  };
}

/** `p`: writable properties; `m`: any other key maps to this; `d`/`e`: discriminator and its cases; `a`: array items. */
export interface SchemaNode {
  p?: Record<string, number>;
  m?: number;
  d?: string;
  e?: Record<string, number>;
  a?: number;
}

export interface ResourceSchemas {
  $comment: string;
  /** `type@version` to its body in `defs`. */
  types: Record<string, number>;
  /** Nodes, referenced by index; -1 is a value not checked further (a string, a number, a union...). */
  defs: SchemaNode[];
}

/** Every verified `type@version`, Azure and Graph. */
export function verifiedTypeNames(verified: VerifiedTypes): string[] {
  return [...Object.keys(verified.azure), ...Object.keys(verified.graph.types)];
}

export interface CheckContext {
  /** The infra directory (infra/ or a broken copy). */
  infraDir: string;
  /** local.settings.sample.json. */
  sampleSettingsFile: string;
  /** settingsSchema from shared/config/settings.ts and its shape. */
  settings: { schema: SettingSchema; shape: Record<string, SettingSchema> };
  allowlist: SettingsAllowlist;
  /** The error codes (shared/domain/errors.ts) with their status (shared/http/error-status.ts): code to [status, meaning]. */
  errorCodes: Record<string, readonly [number, string]>;
  /** The resource types and versions checked against the official type definitions (verified-resource-types.json). */
  verifiedResourceTypes: VerifiedTypes;
  /** azure.yaml (azd). */
  azureYamlFile: string;
  /** host.json (the Functions host: sampling, queues). */
  hostJsonFile: string;
  /** The writable properties of each verified type (resource-schemas.json). */
  resourceSchemas: ResourceSchemas;
}

export interface Infra {
  dir: string;
  files: Map<string, BicepFile>;
  main: BicepFile | undefined;
}

export type Resource = BicepFile['resources'][number];

export async function loadInfra(infraDir: string): Promise<Infra> {
  const files = new Map<string, BicepFile>();
  for (const f of bicepFilesUnder(infraDir)) files.set(path.resolve(f), await parseBicepFile(f));
  return { dir: infraDir, files, main: files.get(path.resolve(infraDir, 'main.bicep')) };
}

/** `infra/...` path of a file, for messages. */
export function rel(infra: { dir: string }, file: string): string {
  return path.join('infra', path.relative(infra.dir, file)).split(path.sep).join('/');
}

export function moduleTarget(infra: Infra, from: BicepFile, source: string): BicepFile | undefined {
  return infra.files.get(path.resolve(path.dirname(from.file), source));
}

/** Resources of a type (without version), across all files. */
export function resourcesOfType(infra: Infra, type: string): { file: BicepFile; resource: Resource }[] {
  const out: { file: BicepFile; resource: Resource }[] = [];
  for (const file of infra.files.values())
    for (const resource of file.resources)
      if (resource.typeAndVersion.split('@')[0]?.toLowerCase() === type.toLowerCase()) out.push({ file, resource });
  return out;
}

/**
 * The sandbox profile's SIEX simulator (modules/siexSimulator.bicep, deployed only by the sandbox profile): a function
 * app that stands in for SIEX, reached by the gateway directly and not through API Management. The checks of the
 * gateway's app (platform, backend-auth, local-auth's telemetry) are about the gateway's sites; sandbox.ts checks this one.
 */
export const SIMULATOR_MODULE = 'modules/siexSimulator.bicep';

export function isSimulatorFile(infra: Infra, file: BicepFile): boolean {
  return path.resolve(file.file) === path.resolve(infra.dir, SIMULATOR_MODULE);
}

/** The gateway's function app(s): every site the templates create but the sandbox's SIEX simulator. */
export function gatewaySites(infra: Infra): { file: BicepFile; resource: Resource }[] {
  return resourcesOfType(infra, 'Microsoft.Web/sites').filter(
    (r) => !r.resource.existing && !isSimulatorFile(infra, r.file),
  );
}

/** The file a `loadTextContent('...')` or `loadJsonContent('...')` in a resource body points at, resolved. */
export function loadedFile(file: BicepFile, body: Node | undefined): string | undefined {
  if (!body) return undefined;
  const call = callsTo(body, ['loadTextContent', 'loadJsonContent'])[0];
  const arg = call ? stringValue(call.args[0]) : undefined;
  return arg === undefined ? undefined : path.resolve(path.dirname(file.file), arg);
}

/** The resource a symbol of a file names (declared or `existing`), if any. */
export function resourceBySymbol(file: BicepFile, symbol: string): Resource | undefined {
  return file.resources.find((r) => r.symbol === symbol);
}

/**
 * What an expression of a module stands for in main.bicep: a parameter of the module is replaced by the expression
 * main.bicep passes for it (`identityPrincipalId` becomes `identities.outputs.functionPrincipalId`), so checks can
 * tell which identity, application or workspace a module's setting names. Anything else is returned as written.
 */
export function mainExpression(infra: Infra, file: BicepFile, node: Node | undefined): string {
  if (!node) return '';
  if (node.type !== 'identifier' || file === infra.main || !file.params.has(node.text)) return node.text;
  const passed = infra.main?.modules
    .filter((m) => moduleTarget(infra, infra.main!, m.source) === file)
    .map((m) => getProperty(m.body, 'params', node.text)?.text)
    .filter((t): t is string => t !== undefined);
  return passed && passed.length > 0 ? passed.join(' | ') : node.text;
}

export interface RoleAssignment {
  file: BicepFile;
  symbol: string;
  /** The built-in role definition id, when written as a GUID (or a variable holding one) in the same file. */
  roleId: string | undefined;
  /** The custom role definition the assignment references, if any, and the file that defines it. */
  customRole: Resource | undefined;
  customRoleFile: BicepFile | undefined;
  /** Who gets the role, as main.bicep names it (e.g. `identities.outputs.functionPrincipalId`, or `principalId`). */
  principal: string;
  /** The type of the resource the `scope:` names, or `(deployment scope)` without one. */
  scopeType: string;
}

/** Every role assignment of the templates: what it grants, to whom, on what. */
export function roleAssignments(infra: Infra): RoleAssignment[] {
  return resourcesOfType(infra, 'Microsoft.Authorization/roleAssignments').map(({ file, resource }) => {
    const roleExpr = getProperty(resource.body, 'properties', 'roleDefinitionId');
    // A custom role is referenced through its resource (`subscriptionResourceId(..., someRole.name)`), or through a
    // parameter main.bicep fills from the output of the module that defines it.
    const local = (roleExpr?.descendantsOfType('identifier') ?? [])
      .map((id) => (id ? resourceBySymbol(file, id.text) : undefined))
      .find(isRoleDefinition);
    const [custom, customRoleFile] = local ? [local, file] : roleDefinitionFromModule(infra, file, roleExpr);
    const scope = getProperty(resource.body, 'scope');
    // `scope: queues[i]` in a loop is scoped to one of the looped resource's instances: its type is the same.
    const scopeSymbol = scope && /^(\w+)(\[\w+\])?$/.exec(scope.text)?.[1];
    const scoped = scopeSymbol ? resourceBySymbol(file, scopeSymbol) : undefined;
    return {
      file,
      symbol: resource.symbol,
      roleId: roleExpr && !custom ? resolveGuid(file, roleExpr) : undefined,
      customRole: custom,
      customRoleFile,
      principal: mainExpression(infra, file, getProperty(resource.body, 'properties', 'principalId')),
      scopeType: scoped
        ? (scoped.typeAndVersion.split('@')[0] ?? '')
        : scope
          ? `(unknown: ${scope.text})`
          : '(deployment scope)',
    };
  });
}

function isRoleDefinition(r: Resource | undefined): r is Resource {
  return r?.typeAndVersion.toLowerCase().startsWith('microsoft.authorization/roledefinitions@') ?? false;
}

/** The role definition of the module whose output main.bicep passes for a parameter (`emailSenderRole.outputs.x`). */
function roleDefinitionFromModule(
  infra: Infra,
  file: BicepFile,
  expr: Node | undefined,
): [Resource | undefined, BicepFile | undefined] {
  const passed = /^(\w+)\.outputs\.\w+$/.exec(mainExpression(infra, file, expr));
  const module = passed && infra.main?.modules.find((m) => m.symbol === passed[1]);
  const target = module && infra.main ? moduleTarget(infra, infra.main, module.source) : undefined;
  const role = target?.resources.find(isRoleDefinition);
  return role ? [role, target] : [undefined, undefined];
}

const GUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** A GUID written in an expression, directly or through a variable (`roles.x`, or `roleId`) of the same file. */
function resolveGuid(file: BicepFile, expr: Node): string | undefined {
  const literal = GUID.exec(expr.text);
  if (literal) return literal[0].toLowerCase();
  for (const m of [expr, ...expr.descendantsOfType('member_expression')]) {
    if (!m || m.type !== 'member_expression') continue;
    const [object, prop] = m.namedChildren;
    const table = object?.type === 'identifier' ? literalValue(file.vars.get(object.text)) : NOT_LITERAL;
    if (table && typeof table === 'object' && prop) {
      const value = (table as Record<string, unknown>)[prop.text];
      if (typeof value === 'string' && GUID.test(value)) return value.toLowerCase();
    }
  }
  for (const id of expr.descendantsOfType('identifier')) {
    const v = id ? literalValue(file.vars.get(id.text)) : NOT_LITERAL;
    if (typeof v === 'string' && GUID.test(v)) return v.toLowerCase();
  }
  return undefined;
}
