import { spawnSync } from 'node:child_process';
import { findProjectRoot } from '../../local/stack';

/**
 * The one-clock rule of eslint.config.mjs (`oneClock`) catches a read of the system time in production code, and
 * leaves shared/time/ and the tooling alone (`npm test` runs ESLint on the repository itself in local/check.ts).
 * ESLint and its config are ES modules, so the rule is run in a process of its own, on the parser alone: it needs no
 * type information.
 */
const ROOT = findProjectRoot(__dirname);

const FIXTURES: Record<string, string> = {
  'shared/export/reads-date.ts': 'export const at = Date.now();\n',
  'shared/records/reads-luxon.ts': "import { DateTime } from 'luxon';\nexport const at = DateTime.now();\n",
  'functions/passes-date.ts': 'export const clock = { now: Date.now };\n',
  'shared/time/system.ts': 'export const at = Date.now();\n',
  'local/tool.ts': 'export const at = Date.now();\n',
  'shared/export/injected.ts': 'export const at = (clock: { now(): number }) => clock.now();\n',
};

/** The rule's findings on each fixture, as `file: message` lines. */
function findings(): string[] {
  const script = `
    import { ESLint } from 'eslint';
    import tseslint from 'typescript-eslint';
    import { oneClock } from './eslint.config.mjs';
    const fixtures = ${JSON.stringify(FIXTURES)};
    const eslint = new ESLint({
      cwd: process.cwd(),
      overrideConfigFile: true,
      overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } }, oneClock],
    });
    const out = [];
    for (const [file, text] of Object.entries(fixtures)) {
      const [result] = await eslint.lintText(text, { filePath: file });
      for (const m of result.messages) out.push(file + ': ' + (m.ruleId ?? 'fatal') + ': ' + m.message);
    }
    console.log(JSON.stringify(out));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as string[];
}

it('refuses Date.now and DateTime.now in functions/ and shared/, except in shared/time/ and outside production', () => {
  expect(findings()).toEqual([
    "shared/export/reads-date.ts: no-restricted-properties: 'Date.now' is restricted from being used. Read the time from the Clock passed in (shared/time/clock.ts)",
    "shared/records/reads-luxon.ts: no-restricted-properties: 'DateTime.now' is restricted from being used. Read the time from the clock passed in (shared/time/date-time.ts, dateTimeNow)",
    "functions/passes-date.ts: no-restricted-properties: 'Date.now' is restricted from being used. Read the time from the Clock passed in (shared/time/clock.ts)",
  ]);
}, 120_000);
