/**
 * Writes infra/openapi.json, the document API Management imports (infra/modules/apim.bicep loads it with
 * loadTextContent), from buildOpenApiDocument(): the same document the app serves at GET /v1/openapi.json.
 *
 *   npm run build && node dist/local/write-openapi.js           rewrite infra/openapi.json
 *   npm run build && node dist/local/write-openapi.js --check   exit 1 if the committed file is stale
 *
 * test/infra/openapi.test.ts fails while the committed file differs from the generated one.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildOpenApiDocument } from '../shared/openapi/document';

/** The repository root: the nearest directory up from here with host.json (works from local/ and dist/local/). */
export function repositoryRoot(from: string = __dirname): string {
  let dir = from;
  while (!fs.existsSync(path.join(dir, 'host.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no host.json above ${from}`);
    dir = parent;
  }
  return dir;
}

export const OPENAPI_FILE = path.join(repositoryRoot(), 'infra', 'openapi.json');

/** The document as committed: two-space JSON with a final newline, so diffs stay readable. */
export function renderOpenApi(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}

export function main(argv: string[] = process.argv.slice(2)): number {
  const rendered = renderOpenApi();
  const current = fs.existsSync(OPENAPI_FILE) ? fs.readFileSync(OPENAPI_FILE, 'utf8') : undefined;
  if (argv.includes('--check')) {
    if (current === rendered) {
      console.log(`${path.relative(process.cwd(), OPENAPI_FILE)} is up to date`);
      return 0;
    }
    console.error(
      `${path.relative(process.cwd(), OPENAPI_FILE)} differs from buildOpenApiDocument(); ` +
        'run: npm run build && node dist/local/write-openapi.js',
    );
    return 1;
  }
  if (current === rendered) console.log(`${path.relative(process.cwd(), OPENAPI_FILE)} unchanged`);
  else {
    fs.writeFileSync(OPENAPI_FILE, rendered);
    console.log(`wrote ${path.relative(process.cwd(), OPENAPI_FILE)} (${rendered.length} characters)`);
  }
  return 0;
}

if (require.main === module) process.exit(main());
