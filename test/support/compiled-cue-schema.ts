import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cueSchemaModule } from '../../local/siex-simulator/cue-schema';
import { cueSchemaPath } from '../../local/siex-data';
import { findProjectRoot } from '../../local/stack';

/**
 * The official CUE schema 3.11.4, compiled once per jest run by the global setup with the SIEX simulator's loader
 * (so tests and simulator judge documents alike) and handed to the test files as a module of ajv's standalone code.
 * Compiling it took each file that checks documents against it one to two seconds of CPU (a fresh module registry
 * per file, so a fresh ajv each time); loading the module takes a tenth of that.
 */

/** Set by the global setup for the test files (jest starts its workers after it, with its environment). */
const FILE_VARIABLE = 'SIEX_TEST_CUE_VALIDATOR';

/** Compiles the schema into a module in a temporary folder and publishes its path; returns the folder. */
export function publishCompiledCueSchema(): string {
  // ajv's standalone code requires its runtime helpers by package name: the module lives outside the project, so
  // they are required by their paths here.
  const source = cueSchemaModule(cueSchemaPath(findProjectRoot(__dirname))).replace(
    /require\("(ajv\/dist\/runtime\/[\w-]+)"\)/g,
    (_, helper: string) => `require(${JSON.stringify(require.resolve(helper))})`,
  );
  const out = mkdtempSync(path.join(tmpdir(), 'siex-test-cue-schema-'));
  const file = path.join(out, 'cue-validator.js');
  writeFileSync(file, source);
  process.env[FILE_VARIABLE] = file;
  return out;
}

export function removeCompiledCueSchema(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  delete process.env[FILE_VARIABLE];
}

/** The module the global setup wrote. */
export function compiledCueSchemaFile(): string {
  const file = process.env[FILE_VARIABLE];
  if (!file) throw new Error(`${FILE_VARIABLE} is not set: run the tests through jest with its global setup`);
  return file;
}
