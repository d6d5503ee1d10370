import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkHttpAuthLevels } from './auth-level';
import { formatFinding } from './checks/model';
import { REPO_ROOT } from './context';

describe('HTTP functions leave authentication to the platform, where API Management is the only admitted caller', () => {
  it('registers every HTTP function with an explicit authLevel anonymous', () => {
    expect(checkHttpAuthLevels(REPO_ROOT).map(formatFinding)).toEqual([]);
  });

  it('reports a registration that demands a function key, or that leaves authLevel unsaid', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'siex-auth-'));
    try {
      fs.mkdirSync(path.join(root, 'functions'));
      fs.writeFileSync(
        path.join(root, 'functions', 'open.ts'),
        [
          "app.http('farms', { route: 'v1/siex/farms', authLevel: 'function', handler });",
          "app.http('jobs', { route: 'v1/entities/jobstatus', handler });",
          "app.http('admin', { route: 'v1/admin', authLevel: 'admin', handler });",
          "app.http('ok', { route: 'x', authLevel: 'anonymous', handler });",
        ].join('\n'),
      );
      const out = checkHttpAuthLevels(root, ['functions']).map(formatFinding).join('\n');
      expect(out).toMatch(/app\.http\('farms'\) at line 1: authLevel must be 'anonymous' \(is 'function'\)/);
      expect(out).toMatch(/app\.http\('jobs'\) at line 2: authLevel must be 'anonymous' \(is missing\)/);
      expect(out).toMatch(/app\.http\('admin'\) at line 3: authLevel must be 'anonymous' \(is 'admin'\)/);
      expect(out).not.toMatch(/'ok'/);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
