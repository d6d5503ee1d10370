import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The `local.settings.json` that `func start` (Azure Functions Core Tools) runs the app with, written by
 * `npm start -- --services-only`: the values of `local.settings.sample.json` (every setting the app reads, with the
 * local stack's defaults), with the addresses and credentials of the services that run now in their place. With the
 * default ports the two files are the same, so the sample documents what `--services-only` writes (a test holds it).
 */

/** The file Core Tools reads: `Values` become the app's environment. */
interface LocalSettingsFile {
  IsEncrypted: false;
  Values: Record<string, string>;
}

const SAMPLE_SETTINGS = 'local.settings.sample.json';

function funcSettings(sample: LocalSettingsFile, env: Record<string, string>): LocalSettingsFile {
  return { ...sample, Values: { ...sample.Values, ...env } };
}

/** Writes the settings for the services running with `env` (the stack's settings) to `file`. */
export function writeFuncSettings(projectRoot: string, file: string, env: Record<string, string>): void {
  const sample = JSON.parse(readFileSync(join(projectRoot, SAMPLE_SETTINGS), 'utf8')) as LocalSettingsFile;
  writeFileSync(file, `${JSON.stringify(funcSettings(sample, env), null, 2)}\n`);
}
