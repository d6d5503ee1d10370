import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { zipSync } from 'fflate';
import { cueSchemaPath } from '../siex-data';
import { findProjectRoot } from '../stack';

/**
 * The sandbox's SIEX Function App package (infra/modules/siexSimulator.bicep), in `dist/deploy-siex/`:
 *
 * - `main.js`: local/siex-simulator/function-main.ts and everything it imports, @azure/functions and zod included, in
 *   one CommonJS file: the package has no dependencies to install, so it is deployed as built;
 * - `cue-schema-3.11.4.json`: the official CUE schema the simulator judges documents by (data/siex/);
 * - `host.json` with no route prefix, so the app's paths are the simulator's and SIEX_BASE_URL is the app's address;
 * - a `package.json` whose `main` is the bundle.
 *
 * `zipPackage` makes the zip Flex Consumption's one-deploy takes (local/sandbox-setup.ts deploys it).
 */
export const SIMULATOR_PACKAGE_DIR = 'dist/deploy-siex';

/** The functions host provides this module; it is never bundled. */
const HOST_MODULES = ['@azure/functions-core'];

export const SIMULATOR_HOST_JSON = {
  version: '2.0',
  logging: { logLevel: { default: 'Warning' } },
  extensions: { http: { routePrefix: '' } },
};

export async function buildSimulatorPackage(
  root: string,
  out = path.join(root, SIMULATOR_PACKAGE_DIR),
): Promise<string> {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  await build({
    entryPoints: [path.join(root, 'local/siex-simulator/function-main.ts')],
    outfile: path.join(out, 'main.js'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    mainFields: ['module', 'main'],
    external: HOST_MODULES,
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'eof',
    logLevel: 'warning',
  });
  const schema = cueSchemaPath(root);
  copyFileSync(schema, path.join(out, path.basename(schema)));
  writeFileSync(path.join(out, 'host.json'), `${JSON.stringify(SIMULATOR_HOST_JSON, null, 2)}\n`);
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    version: string;
    engines?: object;
  };
  const deployPackage = {
    name: 'siex-gateway-siex-simulator',
    version: pkg.version,
    description: "The SIEX simulator as a Function App: the hosted sandbox's SIEX (docs/sandbox.md)",
    private: true,
    main: 'main.js',
    engines: pkg.engines,
  };
  writeFileSync(path.join(out, 'package.json'), `${JSON.stringify(deployPackage, null, 2)}\n`);
  return out;
}

/** The package folder as a zip, each file at its path inside the folder. */
export function zipPackage(dir: string): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const full = path.join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else files[path.relative(dir, full).split(path.sep).join('/')] = readFileSync(full);
    }
  };
  walk(dir);
  return zipSync(files, { level: 6 });
}

if (require.main === module) {
  buildSimulatorPackage(findProjectRoot(__dirname))
    .then((out) => console.log(`SIEX simulator package: ${out}`))
    .catch((e: unknown) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    });
}
