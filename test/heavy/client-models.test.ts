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
import { generateModelFiles, generateModels, modelTypes } from '../../local/client-models';
import { renderOpenApi } from '../../local/write-openapi';
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

/** The model types a generated C# source declares no class for. */
/** npm run test:heavy installs these (local/bootstrap.js) where it runs as root with apt; elsewhere it says what to install. */
function installed(files: string[], packages: string): void {
  const missing = files.filter((file) => !fs.existsSync(file));
  if (missing.length > 0) throw new Error(`missing ${missing.join(', ')}: apt-get install ${packages}`);
}

const classesMissingIn = (cs: string) =>
  modelTypes()
    .map((t) => t.name)
    .filter((n) => !new RegExp(`public (partial )?class ${n}\\b`).test(cs));

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
    // (Not `Percent`: the fertilization models have it, as a nutrient's.)
    expect(/public [^\n;]*\bPercentile\b[ (]/.test(generated)).toBe(false);
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

  it("covers every operation's request and success answer, read from the document", async () => {
    const doc = JSON.parse(renderOpenApi()) as {
      paths: Record<string, Record<string, { operationId?: string; deprecated?: boolean; requestBody?: unknown }>>;
    };
    const names = modelTypes().map((t) => t.name);
    // What the README flow, the fertilizations, the batch, safe harvest, the catalogue, the export and its jobs answer.
    for (const name of ['AgriFertilizeRequest', 'AgriFertilize', 'AgriPhytosanitaryBatch', 'SafeHarvest', 'JobResult'])
      expect(names).toContain(name);
    expect(names).toEqual(expect.arrayContaining(['CropProduct', 'CatalogueProduct', 'ApplicatorCard', 'Problem']));
    const withBody = Object.values(doc.paths)
      .flatMap((m) => Object.values(m))
      .filter((op) => op.operationId && !op.deprecated && op.requestBody).length;
    expect(withBody).toBeGreaterThan(0);
    // Each type has its parse function in the Python models and its class in the C# ones.
    const python = await generateModels('python');
    const snake = (n: string) => n.replace(/(?<!^)([A-Z])/g, '_$1').toLowerCase();
    expect(names.filter((n) => !python.includes(`def ${snake(n)}_from_dict(`))).toEqual([]);
    const cs = await generatedCsharp();
    expect(classesMissingIn(cs)).toEqual([]);
  });

  it('Python: the models compile', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'python-models-'));
    try {
      fs.writeFileSync(path.join(dir, 'siex_models.py'), await generateModels('python'));
      await promisify(execFile)('python3', ['-m', 'py_compile', 'siex_models.py'], { cwd: dir });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("C#: the Json.NET models compile with mono's compiler", async () => {
    const newtonsoft = await generateModels('csharp-newtonsoft');
    // The same model types as the System.Text.Json models: only the serializer's attributes and converters differ.
    expect(classesMissingIn(newtonsoft)).toEqual([]);
    // Debian's mono-mcs and libnewtonsoft-json-cil-dev put the compiler and the assembly here.
    const jsonNet = '/usr/lib/cli/Newtonsoft.Json-5.0/Newtonsoft.Json.dll';
    installed(['/usr/bin/mcs', jsonNet], 'mono-mcs libnewtonsoft-json-cil-dev');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csharp-models-'));
    try {
      fs.writeFileSync(path.join(dir, 'SiexModels.cs'), newtonsoft);
      await promisify(execFile)(
        'mcs',
        ['-target:library', `-r:${jsonNet}`, '-r:System.Numerics.dll', '-out:SiexModels.dll', 'SiexModels.cs'],
        { cwd: dir, maxBuffer: 16 * 1024 * 1024 },
      );
      expect(fs.existsSync(path.join(dir, 'SiexModels.dll'))).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Java: one public type per file, named as its file; javac compiles them against Jackson', async () => {
    const files = await generateModelFiles('java');
    expect(files.size).toBeGreaterThan(modelTypes().length);
    for (const [file, text] of files) {
      const types = [...text.matchAll(/^public (?:final )?(?:class|enum|interface) (\w+)/gm)].map((m) => m[1]);
      expect({ file, types }).toEqual({ file, types: [file.replace(/\.java$/, '')] });
    }
    // Debian's libjackson2-databind-java (and jackson-datatype-jsr310's jar) put the jars the models import here.
    const jars = ['jackson-databind', 'jackson-core', 'jackson-annotations'].map((j) => `/usr/share/java/${j}.jar`);
    installed(['/usr/bin/javac', ...jars], 'default-jdk-headless libjackson2-databind-java');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'java-models-'));
    try {
      const pkg = path.join(dir, 'siexgateway', 'models');
      fs.mkdirSync(pkg, { recursive: true });
      for (const [file, text] of files) fs.writeFileSync(path.join(pkg, file), text);
      await promisify(execFile)(
        'javac',
        ['-cp', jars.join(':'), '-d', path.join(dir, 'out'), ...[...files.keys()].map((f) => path.join(pkg, f))],
        {
          maxBuffer: 16 * 1024 * 1024,
        },
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
