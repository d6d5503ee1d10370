import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkHttpAuthLevels } from './auth-level';
import { formatFinding } from './checks/model';
import { REPO_ROOT } from './context';

describe('HTTP functions demand the function key API Management holds', () => {
  it('registers every HTTP function with authLevel function, except the public OpenAPI document', () => {
    expect(checkHttpAuthLevels(REPO_ROOT).map(formatFinding)).toEqual([]);
  });

  it('reports a registration that is anonymous, or that leaves authLevel to its anonymous default', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'siex-auth-'));
    try {
      fs.mkdirSync(path.join(root, 'functions'));
      fs.writeFileSync(
        path.join(root, 'functions', 'open.ts'),
        [
          "app.http('farms', { route: 'v1/siex/farms', authLevel: 'anonymous', handler });",
          "app.http('jobs', { route: 'v1/entities/jobstatus', handler });",
          "app.http('openapi', { route: 'v1/openapi.json', authLevel: 'anonymous', handler });",
          "app.http('ok', { route: 'x', authLevel: 'function', handler });",
        ].join('\n'),
      );
      const out = checkHttpAuthLevels(root, ['functions']).map(formatFinding).join('\n');
      expect(out).toMatch(/app\.http\('farms'\) at line 1: authLevel must be 'function' \(is 'anonymous'\)/);
      expect(out).toMatch(
        /app\.http\('jobs'\) at line 2: authLevel must be 'function' \(is missing, which means anonymous\)/,
      );
      expect(out).not.toMatch(/openapi|'ok'/);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
