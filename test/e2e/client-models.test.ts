/**
 * The worked examples of docs/clients.md against model types generated from the current document (local/client-models.ts,
 * quicktype): the C# example may name only types and members the generated C# has, and the Python example runs as a
 * reader would run it, against the local stack, to a finished job. A field renamed in a contract, or an example edited
 * without the models, fails here.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { generateModels } from '../../local/client-models';
import { exportFarm, SIEX_FIELDS } from '../helpers/export-stack';
import { gatewayUrl } from '../helpers/http';
import { body } from '../helpers/phyto-stack';

const root = path.resolve(__dirname, '..', '..');
const guide = fs.readFileSync(path.join(root, 'docs', 'clients.md'), 'utf8');

/** The code block of `lang` under the guide's `## heading`. */
function example(heading: string, lang: string): string {
  const section = guide.slice(guide.indexOf(`\n## ${heading}\n`));
  const block = new RegExp('```' + lang + '\\n([\\s\\S]*?)\\n```').exec(section);
  if (!block) throw new Error(`docs/clients.md has no ${lang} block under "## ${heading}"`);
  return block[1];
}

/** What the C# example calls on .NET itself; every other member it names must be a generated one. */
const DOTNET_MEMBERS = new Set([
  'Add',
  'Content',
  'Delay',
  'DefaultRequestHeaders',
  'Deserialize',
  'FromSeconds',
  'Get',
  'GetEnvironmentVariable',
  'Headers',
  'IsSuccessStatusCode',
  'Join',
  'Length',
  'NewGuid',
  'Post',
  'ReadAllText',
  'ReadAsStringAsync',
  'Select',
  'SendAsync',
  'Serialize',
  'ToString',
  'UTF8',
  'WriteLine',
]);

describe('docs/clients.md, against models generated from the document', () => {
  let csharp: Promise<string> | undefined;
  const generatedCsharp = () => (csharp ??= generateModels('csharp'));

  it('C#: every model type and member the example names is in the generated C#', async () => {
    const generated = await generatedCsharp();
    const code = example('C#', 'csharp');
    expect(code).toContain('using SiexGateway.Models;');
    expect(generated).toContain('namespace SiexGateway.Models');
    // Model types appear parsed (`X.FromJson(`), as what an answer is read into (`await Send<X>`, `await Send<X[]>`), or declared.
    const types = new Set(
      [...code.matchAll(/\b([A-Z]\w*)\.FromJson\(|await Send<([A-Z]\w*)(?:\[\])?>|^([A-Z]\w*) \w+;$/gm)].map(
        (m) => m[1] ?? m[2] ?? m[3],
      ),
    );
    expect([...types].sort()).toEqual([
      'AgriPhytosanitary',
      'AgriPhytosanitaryRequest',
      'ExportAccepted',
      'JobAsync',
      'JobResult',
      'Problem',
    ]);
    const missing = (names: Iterable<string>, pattern: (n: string) => RegExp) =>
      [...names].filter((n) => !pattern(n).test(generated));
    expect(missing(types, (t) => new RegExp(`public (partial|static) class ${t}\\b`))).toEqual([]);
    const members = new Set(
      [...code.replace(/^using .*$/gm, '').matchAll(/\.([A-Z]\w*)\b/g)]
        .map((m) => m[1])
        .filter((m) => !DOTNET_MEMBERS.has(m)),
    );
    expect(members.size).toBeGreaterThan(10);
    expect(missing(members, (m) => new RegExp(`public [^\\n;]*\\b${m}\\b[ (]`))).toEqual([]);
  });

  it('C#: the check bites on a member the models do not have', async () => {
    const generated = await generatedCsharp();
    expect(/public [^\n;]*\bPercent\b[ (]/.test(generated)).toBe(false);
    expect(/public [^\n;]*\bPercentage\b[ (]/.test(generated)).toBe(true);
  });

  it('Python: the example runs against the local stack, from registration to the job result', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'python-client-'));
    try {
      fs.writeFileSync(path.join(dir, 'siex_models.py'), await generateModels('python'));
      fs.writeFileSync(path.join(dir, 'example.py'), example('Python', 'python'));
      const farm = await exportFarm('python-client');
      fs.writeFileSync(
        path.join(dir, 'treatment.json'),
        JSON.stringify(body({ idcp: [farm.vine[0]], ...SIEX_FIELDS })),
      );
      const { stdout } = await promisify(execFile)('python3', ['example.py', farm.agrifarmId, 'treatment.json'], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 90_000,
        env: {
          ...process.env,
          SIEX_GATEWAY: gatewayUrl(),
          SIEX_SID_KEY: farm.keys.sidKey,
          SIEX_API_KEY: farm.keys.apiKey,
        },
      });
      const id = /^registered urn:ngsi-ld:AgriPhytosanitary:(\d+)$/m.exec(stdout)?.[1];
      expect(stdout).toMatch(/^job \d+: FinalizadoCompleto \(100 %\)$/m);
      expect(stdout.trim().split('\n').at(-1)).toBe(`record ${id}: in SIEX`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
