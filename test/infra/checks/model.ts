/**
 * What every offline check of infra/ shares: the finding it reports, the inputs it reads (a CheckContext, so the same
 * check runs on the real infra/ and on copies broken on purpose), and the parsed templates with lookups over them.
 */
import * as path from 'node:path';
import type { Node } from 'web-tree-sitter';
import { BicepFile, bicepFilesUnder, callsTo, parseBicepFile, stringValue } from '../bicep';

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
  /** Not in the schema: read by the Functions host when run locally, listed in local.settings.sample.json. */
  sampleHostOwned: Record<string, string>;
}

/** The part of a zod schema the checks use (kept structural so the checks do not depend on zod's types). */
export interface SettingSchema {
  safeParse(value: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } };
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
  /** `Provider/type@version` strings checked against the documentation (verified-resource-types.json). */
  verifiedResourceTypes: string[];
  /** azure.yaml (azd). */
  azureYamlFile: string;
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

/** The file a `loadTextContent('...')` in a resource body points at, resolved. */
export function loadedFile(file: BicepFile, body: Node | undefined): string | undefined {
  if (!body) return undefined;
  const call = callsTo(body, ['loadTextContent'])[0];
  const arg = call ? stringValue(call.args[0]) : undefined;
  return arg === undefined ? undefined : path.resolve(path.dirname(file.file), arg);
}
