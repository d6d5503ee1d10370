import { siexSimulatorControl } from '../../local/siex-simulator/control';
import { ANCHOR } from '../helpers/dataset';
import { ExportFarm, gatewayCalls, recordNumber, sendableFarm } from '../helpers/export-stack';
import { call, get, Keys, postJson, Reply } from '../helpers/http';
import { farmOverHttp, seedPhyto, testClient, uniqueRea } from '../helpers/phyto-stack';
import { checkProblemShape } from '../helpers/spec-shapes';

/**
 * Issue 35, item 2, over HTTP through the local runner: a soil analysis and a water analysis registered, listed, read,
 * amended, deleted before and after SIEX holds them, and exported in the exportCUE job, read back from the SIEX
 * simulator's notebook as `Analitica` blocks valid against schema 3.11.4.
 */
const gw = gatewayCalls();
const siex = () => siexSimulatorControl(process.env.SIEX_SIMULATOR_URL!);
const PATH = '/v1/entities/agrianalyses/';
const day = (daysBack: number) => ANCHOR.minus({ days: daysBack }).toFormat('dd-MM-yyyy');

const rea = uniqueRea();
const client = testClient('analysis', [rea], { email: `analysis-${rea.toLowerCase()}@erp.example` });
const keys: Keys = { sidKey: client.sidKey, apiKey: client.apiKey };
const farm = sendableFarm(rea);
let f: ExportFarm;

const query = (extra: Record<string, string> = {}) =>
  new URLSearchParams({ agrifarmId: f.agrifarmId, ...extra }).toString();
const register = (b: unknown) => postJson(`${PATH}?${query()}`, b, keys);
const list = (extra: Record<string, string> = {}) => get(`${PATH}?${query(extra)}`, keys);
const recordPath = (id: string) => `${PATH}${encodeURIComponent(id)}?${query()}`;
const read = (id: string) => get(recordPath(id), keys);
const remove = (id: string) => call('DELETE', recordPath(id), { keys });
const patch = (id: string, changes: unknown, headers: Record<string, string> = {}) =>
  call('PATCH', recordPath(id), {
    keys,
    headers: { 'Content-Type': 'application/merge-patch+json', ...headers },
    body: JSON.stringify(changes),
  });

const soil = (o: Record<string, unknown> = {}) => ({
  type: 'AgriAnalysis',
  date: day(3),
  idcp: [f.vine[0]],
  material: { type: 'TypeAnalyzedMaterial', id: '3', name: 'Suelo' },
  analyses: [{ type: 'TypeAnalysis', id: '5', name: 'Parámetros del Suelo' }],
  laboratory: { name: 'Laboratorio Agrario de Levante', nif: 'B12345674' },
  report: 'LAB-2026/0412',
  soil: { organicMatter: 1.8, sand: 42, silt: 35, clay: 23, ph: 8.1 },
  ...o,
});
const water = () => ({
  type: 'AgriAnalysis',
  date: day(2),
  material: { type: 'TypeAnalyzedMaterial', id: '4', name: 'Agua de riego' },
  analyses: [{ type: 'TypeAnalysis', id: '4', name: 'Nutrientes' }],
});

function created(res: Reply): { id: string; etag: string; record: any } {
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
  return { id: res.json[0].id, etag: res.headers.get('etag') ?? '', record: res.json[0] };
}

function expectProblem(res: Reply, status: number, errors: string[]): void {
  expect([res.status, res.json?.errors?.map((e: { code: string; path: string }) => `${e.code} ${e.path}`)]).toEqual([
    status,
    errors,
  ]);
  checkProblemShape(res.json, status);
}

beforeAll(async () => {
  await seedPhyto({ farms: [farm], clients: [client] });
  f = { keys, client, rea, codigoRea: farm.codigoRea, ...(await farmOverHttp(keys, rea)) };
});

describe('analyses over HTTP', () => {
  it('refuses bad bodies with every violation listed, and stores nothing', async () => {
    expectProblem(await register(soil({ soil: { sand: 60, silt: 30, clay: 11 } })), 400, ['INVALID_VALUE body.soil']);
    expectProblem(await register(soil({ idcp: [], laboratory: { name: 'Lab', nif: 'B12345675' } })), 400, [
      'REQUIRED body.idcp',
      'NIF_INVALID body.laboratory.nif',
    ]);
    expect((await list()).json).toEqual([]);
  });

  it('is registered, listed, read, amended, deleted, and exported as Analitica', async () => {
    const { id, etag, record } = created(await register(soil()));
    expect(id).toMatch(/^urn:ngsi-ld:AgriAnalysis:[1-9]\d*$/);
    expect(record).toMatchObject({ type: 'AgriAnalysis', date: day(3), exportable: true, exportBlockers: [] });
    const waterId = created(await register(water())).id;

    const listed = await list({ material: '3' });
    expect([listed.status, listed.headers.get('x-total-count'), listed.json.map((r: any) => r.id)]).toEqual([
      200,
      '1',
      [id],
    ]);
    expect((await list()).json.map((r: any) => r.id)).toEqual([waterId, id]);
    expect((await read(id)).json).toEqual([record]);

    const amended = await patch(id, { soil: { ph: 7.9 } }, { 'If-Match': etag });
    expect([amended.status, amended.headers.get('etag')]).toEqual([200, '"2"']);
    expect(amended.json[0].soil).toEqual({ organicMatter: 1.8, sand: 42, silt: 35, clay: 23, ph: 7.9 });

    const gone = created(await register(soil({ report: 'LAB-2026/0413' })));
    expect((await remove(gone.id)).status).toBe(204);

    const started = await gw.exportCue(f, [id, waterId]);
    expect(started.status).toBe(202);
    expect((await gw.settled(keys, started.json.id)).job.status.name).toBe('FinalizadoCompleto');
    const held = await siex().notebook('Analitica', farm.codigoRea);
    expect(held.map((e) => e.idAjena).sort()).toEqual([recordNumber(id), recordNumber(waterId)].sort());
    const block = (x: string) => held.find((e) => e.idAjena === recordNumber(x))?.block as any;
    expect(block(id)).toMatchObject({
      MaterialAnalizado: 3,
      Fecha: day(3).replace(/-/g, '/'),
      Laboratorio: 'Laboratorio Agrario de Levante',
      Nif: 'B12345674',
      NumBoletin: 'LAB-2026/0412',
      TiposAnalisis: [{ TipoAnalisis: 5 }],
      ParametrosSuelo: { MateriaOrganica: 1.8, Arena: 42, Limo: 35, Arcilla: 23, Ph: 7.9 },
    });
    expect(block(id).DGCs).toHaveLength(1);
    expect(block(waterId)).not.toHaveProperty('DGCs');

    const deleted = await remove(waterId);
    expect(deleted.status).toBe(202);
    expect((await gw.settled(keys, deleted.json.id)).job.status.name).toBe('FinalizadoCompleto');
    expect((await siex().notebook('Analitica', farm.codigoRea)).map((e) => e.idAjena)).toEqual([recordNumber(id)]);
    expect((await read(waterId)).status).toBe(404);
  });
});
