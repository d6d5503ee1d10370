import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { findProjectRoot } from './stack';

/**
 * `npm run start:func`: the app under Azure Functions Core Tools (`func start`), against the services
 * `npm start -- --services-only` runs and the local.settings.json it writes. Core Tools are installed apart (they are
 * not an npm dependency of the project); without them this says how to install them instead of failing with a bare
 * `func: not found`.
 */

export const CORE_TOOLS_MISSING = `Azure Functions Core Tools (the \`func\` command) are not installed, or not on PATH.
Install version 4, then run npm run start:func again:
  npm:     npm install -g azure-functions-core-tools@4
  macOS:   brew tap azure/functions && brew install azure-functions-core-tools@4
  Windows: winget install Microsoft.Azure.FunctionsCoreTools
  Linux:   the Microsoft package repository (apt/dnf install azure-functions-core-tools-4)
  https://learn.microsoft.com/azure/azure-functions/functions-run-local
Without them, npm start runs the same app in the project's own Functions runner.`;

export const SETTINGS_MISSING = `No local.settings.json: start the services func start runs against first, in another terminal:
  npm start -- --services-only
(it writes local.settings.json).`;

/** The executable `command` on PATH (with Windows' extensions there), or undefined. */
function findOnPath(command: string, env: NodeJS.ProcessEnv): string | undefined {
  const extensions = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const ext of extensions) {
      const candidate = join(dir, command + ext);
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // Not here; keep looking.
      }
    }
  }
  return undefined;
}

function main(): void {
  const root = findProjectRoot(__dirname);
  const func = findOnPath('func', process.env);
  if (!func) {
    console.error(CORE_TOOLS_MISSING);
    process.exit(1);
  }
  if (!existsSync(join(root, 'local.settings.json'))) {
    console.error(SETTINGS_MISSING);
    process.exit(1);
  }
  // A .cmd on Windows runs through the shell; the arguments are ours, not the user's.
  const child = spawn(func, ['start', ...process.argv.slice(2)], {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  process.on('SIGINT', () => undefined);
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (require.main === module) main();
