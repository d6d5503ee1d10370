/**
 * Lints infra/openapi.json with Redocly's recommended rules (the maintained OpenAPI linter, as its CLI runs them)
 * and prints every problem; exits 1 when there is any error or warning.
 *
 *   npm run build && node dist/local/lint-openapi.js [FILE]
 */
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { OPENAPI_FILE } from './write-openapi';
import { dynamicImport } from './dynamic-import';

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer?: string }[];
}

async function lintOpenApi(file: string = OPENAPI_FILE): Promise<string[]> {
  const redocly = await dynamicImport<{
    createConfig(config: object): Promise<unknown>;
    lint(options: { ref: string; config: unknown }): Promise<LintProblem[]>;
  }>('@redocly/openapi-core');
  const config = await redocly.createConfig({ extends: ['recommended'] });
  const problems = await redocly.lint({ ref: file, config });
  return problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? '#'}: ${p.message}`);
}

if (require.main === module) {
  const { positionals } = parseArgs({ allowPositionals: true });
  const file = path.resolve(positionals[0] ?? OPENAPI_FILE);
  lintOpenApi(file).then(
    (problems) => {
      for (const p of problems) console.log(p);
      console.log(`${path.relative(process.cwd(), file)}: ${problems.length} problem(s) (Redocly recommended rules)`);
      process.exit(problems.length > 0 ? 1 : 0);
    },
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(2);
    },
  );
}
