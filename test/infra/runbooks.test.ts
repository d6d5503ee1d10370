import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from './context';
import { checkRunbooks } from './runbooks';

const operations = fs.readFileSync(path.join(REPO_ROOT, 'docs/operations.md'), 'utf8');
const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');

describe("the operators' runbooks and the README's operating facts", () => {
  it('has every runbook, each naming its admin command and a test that runs it, and the cost, FEGA and certificate notes', () => {
    expect(checkRunbooks(operations, readme, REPO_ROOT)).toEqual([]);
  });

  it('bites on a missing runbook, a runbook without its test, a test that runs none of its commands', () => {
    const broken = operations
      .replace('### The campaign rollover', '### The yearly thing')
      .replace('(`test/integration/export-failed-job.test.ts`)', '')
      .replace('(`test/integration/catalog-register-import.test.ts`)', '(`test/heavy/table-backup.test.ts`)');
    const out = checkRunbooks(broken, readme, REPO_ROOT).join('\n');
    expect(out).toMatch(/runbook "The campaign rollover" is missing/);
    expect(out).toMatch(/runbook "Releasing outcome-unknown jobs" names no test that runs its commands/);
    expect(out).toMatch(
      /runbook "Refreshing the register and the catalogues": none of test\/heavy\/table-backup\.test\.ts, test\/integration\/fetch-catalogues\.test\.ts runs import-products/,
    );
  });

  it('bites on a key rotation without the key generator, or naming a test that does not run it', () => {
    const rotation = operations.slice(operations.indexOf('### Rotating keys'), operations.indexOf('### The campaign'));
    const withoutGenerator = operations.replace(
      rotation,
      rotation.replaceAll('`npm run admin -- new-key` prints', 'a password manager prints'),
    );
    expect(checkRunbooks(withoutGenerator, readme, REPO_ROOT)).toEqual([
      'docs/operations.md: runbook "Rotating keys" does not name npm run admin -- new-key',
    ]);
    const untested = operations.replace(
      rotation,
      rotation.replace(
        '(`test/e2e/key-rotation.test.ts`, `test/integration/import.test.ts`)',
        '(`test/e2e/access.test.ts`)',
      ),
    );
    expect(checkRunbooks(untested, readme, REPO_ROOT).join('\n')).toMatch(
      /runbook "Rotating keys": none of test\/e2e\/access\.test\.ts[^\n]* runs new-key/,
    );
  });

  it('bites on a README without the cost date or FEGA addresses', () => {
    const broken = readme
      .replace(/as published on \d+ \w+ 20\d\d/, 'as published')
      .replace("**FEGA's addresses.**", '');
    const out = checkRunbooks(operations, broken, REPO_ROOT).join('\n');
    expect(out).toMatch(/monthly cost per environment, at list prices with the date of the figures, is missing/);
    expect(out).toMatch(/FEGA's addresses are missing/);
  });
});
