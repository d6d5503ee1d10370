/**
 * The TypeScript client as an ERP team receives it: `npm pack` (whose `prepack` builds it), the tarball installed in a
 * project of its own that checks libraries' types too (`skipLibCheck: false`), and that project type-checked. The
 * other client tests import its sources, so only this one sees what the package ships: types that fail to resolve
 * would make every call `any` under `skipLibCheck: true`, and a wrong call would compile.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');

const CLIENT = `import { createSiexClient } from '@siex-gateway/client';
export const siex = createSiexClient({ baseUrl: 'http://127.0.0.1:7071', sidKey: 'sid', apiKey: 'api' });
`;

/** Each consumer file, and the one error tsc must report in it (none for the correct calls). */
const FILES: Record<string, { source: string; error?: RegExp }> = {
  'client.ts': { source: CLIENT },
  'correct.ts': {
    source: `import { orThrow, ProblemError, GatewayUnreachableError, JobWaitTimeoutError } from '@siex-gateway/client';
import { siex } from './client';
export async function flow(signal: AbortSignal): Promise<string> {
  const [farm] = await orThrow(siex.api.GET('/v1/siex/farms', { params: { query: { rea: '46000000001', year: 2026 } } }));
  const job = await orThrow(
    siex.api.POST('/v1/entities/siex/exportCUE', { params: { query: { agrifarmId: farm.id } }, body: [{ id: 'urn:x:1' }] }),
  );
  try {
    const { job: settled, result } = await siex.waitForJob(Number(job.id), {
      onProgress: (j) => console.log(j.status.name, j.percentage),
      signal,
      timeoutMs: 60_000,
    });
    return settled.status.name + result.data.length;
  } catch (e) {
    if (e instanceof ProblemError) return e.codes.join() + e.problem?.errors[0]?.path;
    if (e instanceof GatewayUnreachableError) return String(e.cause);
    if (e instanceof JobWaitTimeoutError) return e.job.status.name;
    throw e;
  }
}
`,
  },
  'wrong-query-type.ts': {
    source: `${CLIENT}export const call = siex.api.GET('/v1/siex/farms', { params: { query: { rea: '46000000001', year: '2026' } } });
`,
    error: /error TS2322: Type 'string' is not assignable to type 'number'/,
  },
  'unknown-field.ts': {
    source: `${CLIENT}export const call = siex.api.POST('/v1/siex/listidcp', {
  params: { query: { agrifarmId: 'urn:ngsi-ld:AgriFarm:1' } },
  body: {
    type: 'IDCP',
    crop: { type: 'TypeCropVariety', typecrop: { id: '101', type: 'TypeCrop', name: 'OLIVO' }, code: 2001, name: 'BLANQUETA' },
    regionalAttributes: [],
    colour: 'red',
  },
});
`,
    error: /error TS2353: Object literal may only specify known properties, and 'colour' does not exist/,
  },
};

let dir: string;
let tarball: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'client-package-'));
  const packed = execFileSync(npm, ['pack', '--silent', '--pack-destination', dir], {
    cwd: path.join(root, 'clients', 'typescript'),
    encoding: 'utf8',
  });
  tarball = path.join(dir, packed.trim().split('\n').pop()!);
  const consumer = path.join(dir, 'consumer');
  fs.mkdirSync(consumer);
  fs.writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'erp', private: true }));
  fs.writeFileSync(
    path.join(consumer, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'commonjs',
        moduleResolution: 'node',
        lib: ['ES2022', 'DOM'],
        types: [],
        strict: true,
        noEmit: true,
        skipLibCheck: false,
      },
      include: ['*.ts'],
    }),
  );
  for (const [name, { source }] of Object.entries(FILES)) fs.writeFileSync(path.join(consumer, name), source);
  // The registry answers what the cache lacks (the client's own dependency), as it would for an ERP team.
  execFileSync(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], {
    cwd: consumer,
    stdio: 'pipe',
  });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** tsc's diagnostics for the consumer project, by file (empty when it compiles). */
function typeCheck(): Record<string, string[]> {
  let out = '';
  try {
    execFileSync(process.execPath, [tsc, '-p', '.', '--pretty', 'false'], {
      cwd: path.join(dir, 'consumer'),
      encoding: 'utf8',
    });
  } catch (e) {
    out = (e as { stdout: string }).stdout;
  }
  const byFile: Record<string, string[]> = {};
  for (const line of out.split('\n').filter((l) => /error TS\d+/.test(l))) {
    const file = line.slice(0, line.indexOf('('));
    (byFile[file] ??= []).push(line);
  }
  return byFile;
}

describe('the packed client package', () => {
  it('ships its built code and every type it imports, in dist/', () => {
    const listed = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(listed).toEqual(
      expect.arrayContaining([
        'package/dist/index.js',
        'package/dist/index.d.ts',
        'package/dist/schema.d.ts',
        'package/README.md',
      ]),
    );
    expect(listed.filter((f) => f.startsWith('package/src/'))).toEqual([]);
  });

  it('type-checks in a strict consumer with skipLibCheck off: the correct calls compile, the wrong ones fail', () => {
    const errors = typeCheck();
    expect(Object.keys(errors).sort()).toEqual(['unknown-field.ts', 'wrong-query-type.ts']);
    for (const [name, { error }] of Object.entries(FILES))
      if (error) expect({ name, errors: errors[name] }).toEqual({ name, errors: [expect.stringMatching(error)] });
  });

  it('loads in Node from the installed package', () => {
    const printed = execFileSync(
      process.execPath,
      [
        '-e',
        `const c = require('@siex-gateway/client');
         const e = new c.ProblemError(400, { type: 'about:blank', title: 'Bad Request', status: 400, detail: 'd',
           errors: [{ code: 'REQUIRED', path: 'body.dose', message: 'dose is required' }] });
         console.log(typeof c.createSiexClient, e.message.split('\\n')[1]);`,
      ],
      { cwd: path.join(dir, 'consumer'), encoding: 'utf8' },
    );
    expect(printed.trim()).toBe('function   - REQUIRED at body.dose: dose is required');
  });
});
