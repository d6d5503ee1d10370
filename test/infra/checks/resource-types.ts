/**
 * Resource types and API versions: each one the templates use is listed in verified-resource-types.json with the
 * official type definition that defines it. Microsoft Graph types (Microsoft.Graph/...@v1.0) come with the Graph
 * Bicep extension, so the file that declares them must say `extension <alias>`, and infra/bicepconfig.json must map
 * that alias to the extension version their definitions were read from.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Finding, Infra, rel, VerifiedTypes } from './model';

const AZURE_TYPE = /^[A-Za-z]+\.[A-Za-z]+\/[A-Za-z/]+@\d{4}-\d{2}-\d{2}(-preview)?$/;
const GRAPH_TYPE = /^Microsoft\.Graph\/[A-Za-z/]+@(v1\.0|beta)$/;

export function checkResourceTypes(infra: Infra, verified: VerifiedTypes): Finding[] {
  const out: Finding[] = [];
  const known = new Set(Object.keys(verified.azure).map((v) => v.toLowerCase()));
  const knownGraph = new Set(Object.keys(verified.graph.types).map((v) => v.toLowerCase()));
  const extensions = bicepConfigExtensions(infra, out);
  for (const f of infra.files.values()) {
    const file = rel(infra, f.file);
    for (const alias of f.extensions)
      if (extensions && extensions[alias] !== verified.graph.extension)
        out.push({
          check: 'resource-types',
          file,
          message: `extension ${alias} must be declared in infra/bicepconfig.json as '${verified.graph.extension}' (the version whose types were checked), is ${JSON.stringify(extensions[alias])}`,
        });
    for (const r of f.resources) {
      const typeAndVersion = r.typeAndVersion;
      if (GRAPH_TYPE.test(typeAndVersion)) {
        if (!knownGraph.has(typeAndVersion.toLowerCase()))
          out.push({
            check: 'resource-types',
            file,
            message: `resource ${r.symbol}: '${typeAndVersion}' is not a type of Graph extension ${verified.graph.extension} (test/infra/verified-resource-types.json)`,
          });
        if (f.extensions.length === 0)
          out.push({
            check: 'resource-types',
            file,
            message: `resource ${r.symbol}: '${typeAndVersion}' needs the Microsoft Graph extension: declare \`extension <alias>\` in this file`,
          });
      } else if (!AZURE_TYPE.test(typeAndVersion))
        out.push({
          check: 'resource-types',
          file,
          message: `resource ${r.symbol}: '${typeAndVersion}' is not Provider/type@yyyy-mm-dd`,
        });
      else if (!known.has(typeAndVersion.toLowerCase()))
        out.push({
          check: 'resource-types',
          file,
          message: `resource ${r.symbol}: '${typeAndVersion}' has not been checked against the official type definitions (test/infra/verified-resource-types.json)`,
        });
    }
  }
  return out;
}

/** The `extensions` of infra/bicepconfig.json (alias to registry reference); undefined, with a finding, if unreadable. */
function bicepConfigExtensions(infra: Infra, out: Finding[]): Record<string, unknown> | undefined {
  const file = path.join(infra.dir, 'bicepconfig.json');
  if (![...infra.files.values()].some((f) => f.extensions.length > 0)) return undefined;
  try {
    const config = JSON.parse(fs.readFileSync(file, 'utf8')) as { extensions?: Record<string, unknown> };
    return config.extensions ?? {};
  } catch (e) {
    out.push({ check: 'resource-types', file: rel(infra, file), message: `unreadable: ${(e as Error).message}` });
    return undefined;
  }
}
