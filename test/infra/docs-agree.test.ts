import * as fs from 'node:fs';
import * as path from 'node:path';
import { Infra, loadInfra } from './checks/model';
import { INFRA_DIR, REPO_ROOT } from './context';
import { docsFindings, functionGroups } from './docs-agree';

const operations = fs.readFileSync(path.join(REPO_ROOT, 'docs/operations.md'), 'utf8');
const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');

describe('docs/operations.md and the README agree with the templates (issue 36)', () => {
  let infra: Infra;
  beforeAll(async () => {
    infra = await loadInfra(INFRA_DIR);
  });

  it('list every alert, every lock, every azd variable, and the always-ready instances the app has', () => {
    expect(docsFindings(infra, operations, readme, REPO_ROOT)).toEqual([]);
  });

  it('bite on an alert or a lock missing from the tables, an undocumented variable, a wrong count of groups or accounts', () => {
    const broken = operations
      .replace(/^\| `queue-depth` .*\n/m, '')
      .replace(/^\| `keep-client-subscriptions` .*\n/m, '')
      .replace('| `OPERATOR_IP_RANGES` |', '| OPERATOR_RANGES |')
      .replace('| `lock-deleted` (activity log) |', '| `lock-removed` (activity log) |')
      .replace('1 (at most 8)', '1 (at most 16)');
    const out = docsFindings(
      infra,
      broken,
      readme.replace('each of the 7 function groups', 'each of the 6 function groups'),
      REPO_ROOT,
    ).join('\n');
    expect(out).toMatch(/Alerts: alert queue-depth of the templates is missing/);
    expect(out).toMatch(/Alerts: lock-removed is not an alert of the templates/);
    expect(out).toMatch(/Locks: lock keep-client-subscriptions of the templates is missing/);
    expect(out).toMatch(/azd variable OPERATOR_IP_RANGES \(parameter operatorIpRanges\) is not documented/);
    expect(out).toMatch(/the cost table must count 7 function groups/);
    expect(out).toMatch(/the DATA_ACCOUNT_COUNT row must say at most 8 \(main\.bicep's @maxValue\)/);
    expect(out).not.toMatch(/More data accounts: must say/);
  });

  it('counts a function group per non-HTTP function, and one for every HTTP function', () => {
    expect(functionGroups("app.http('a', {});\napp.timer('t', {});\napp.storageQueue('q', {});\n")).toBe(3);
  });
});
