import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import { SiexCodeStore } from '../../shared/catalog/siex-codes/store';
import { SIEX_DIR } from '../unit/catalog-fixtures';
import { cp1252, newerUnitsCatalogue, UNUSED_CATALOGUE } from '../helpers/newer-catalogues';
import { testTables } from '../helpers/storage';
import { runAdminCli as admin } from '../helpers/admin-cli';

/**
 * `npm run admin -- fetch-catalogues` as operators run it (the compiled command, its own process), against a local
 * HTTP server standing in for FEGA's catalogue service: it serves zips the tests build from the official files.
 */
const official = (file: string) => readFileSync(path.join(SIEX_DIR, file));

let server: Server;
let base: string;
const served = new Map<string, { status: number; body: Buffer }>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const answer = served.get(req.url ?? '') ?? { status: 404, body: Buffer.from('not found') };
    res.writeHead(answer.status, { 'Content-Type': 'application/zip' }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const outDirs: string[] = [];
afterAll(() => outDirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
function outDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'siex-fetch-'));
  outDirs.push(dir);
  return path.join(dir, 'catalogues');
}

function serveZip(route: string, files: Record<string, Buffer>): string {
  served.set(route, {
    status: 200,
    body: Buffer.from(zipSync(Object.fromEntries(Object.entries(files).map(([n, b]) => [n, new Uint8Array(b)])))),
  });
  return `${base}${route}`;
}

describe('admin fetch-catalogues', () => {
  it('reports a changed, an added and a removed catalogue file and writes the files byte for byte', async () => {
    const newerUnits = newerUnitsCatalogue(official('UNIDADES_MEDIDA.csv'));
    // FEGA's zip keeps its files in a folder; EST_FENOLOGICO is left out, and a catalogue the gateway does not read
    // comes along.
    const files: Record<string, Buffer> = {};
    for (const f of readdirSync(SIEX_DIR)) if (f !== 'EST_FENOLOGICO.csv') files[`catalogos/${f}`] = official(f);
    files['catalogos/UNIDADES_MEDIDA.csv'] = newerUnits;
    files[`catalogos/${UNUSED_CATALOGUE.file}`] = UNUSED_CATALOGUE.bytes;
    const url = serveZip('/zip/newer', files);
    const out = outDir();

    const r = await admin(['fetch-catalogues', '--from', url, '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`SIEX catalogues from ${url}, written to ${out}`);
    expect(r.stdout).toMatch(/UNIDADES_MEDIDA\s+1 added, 2 changed, 1 end-dated, 1 gone/);
    expect(r.stdout).toMatch(/added: 83\n/);
    expect(r.stdout).toMatch(/changed: 81, 82\n/);
    expect(r.stdout).toMatch(/end-dated: 82\n/);
    expect(r.stdout).toMatch(/no longer in the file: 80\n/);
    expect(r.stdout).toMatch(/PLAGAS\s+unchanged/);
    expect(r.stdout).toMatch(/MAT_FERTI\s+unchanged/);
    expect(r.stdout).toMatch(/BUENAS_PRACTICAS_FERTILIZACION\s+unchanged/);
    expect(r.stdout).toContain('not in the zip (left as they were): EST_FENOLOGICO.csv');
    expect(r.stdout).toContain(`in the zip, not used by the gateway: ${UNUSED_CATALOGUE.file}`);

    expect(readFileSync(path.join(out, 'UNIDADES_MEDIDA.csv')).equals(newerUnits)).toBe(true);
    expect(readFileSync(path.join(out, 'PLAGAS.csv')).equals(official('PLAGAS.csv'))).toBe(true);
    expect(existsSync(path.join(out, 'EST_FENOLOGICO.csv'))).toBe(false);
    expect(existsSync(path.join(out, UNUSED_CATALOGUE.file))).toBe(false);
  });

  it('with --import, loads what it fetched into storage', async () => {
    // Only additive, so the other test files sharing this Azurite see no code they use change.
    const units = Buffer.concat([official('UNIDADES_MEDIDA.csv'), cp1252('"9901";"u/fetch-test";01/01/2026;;\n')]);
    const url = serveZip('/zip/import', { 'UNIDADES_MEDIDA.csv': units });
    const r = await admin(['fetch-catalogues', '--from', url, '--out', outDir(), '--import']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/UNIDADES_MEDIDA\s+1 added, 0 changed, 0 end-dated, 0 gone/);
    const stored = await new SiexCodeStore(testTables()).loadCatalogue('UNIDADES_MEDIDA');
    expect(stored.find((c) => c.code === '9901')?.name).toBe('u/fetch-test');
  });

  it('fails without writing anything when the service answers an error or something that is not a zip', async () => {
    served.set('/zip/down', { status: 503, body: Buffer.from('maintenance') });
    served.set('/zip/html', { status: 200, body: Buffer.from('<html>maintenance</html>') });
    for (const [route, message] of [
      ['/zip/down', /answered 503/],
      ['/zip/html', /is not a readable zip/],
    ] as const) {
      const out = outDir();
      const r = await admin(['fetch-catalogues', '--from', `${base}${route}`, '--out', out]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(existsSync(out)).toBe(false);
    }
  });

  it('refuses an unknown flag', async () => {
    const r = await admin(['fetch-catalogues', '--form', base]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Unknown option '--form'/);
  });
});
