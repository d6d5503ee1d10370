import { siexSimulatorControl } from '../../local/siex-simulator/control';
import { ANCHOR } from '../helpers/dataset';
import { ExportFarm, gatewayCalls, recordNumber, sendableFarm, SIEX_FIELDS } from '../helpers/export-stack';
import { grapesBody, HARVESTER } from '../helpers/harvest-fixtures';
import { call, get, Keys, postJson, Reply } from '../helpers/http';
import { body, daysAgo, farmOverHttp, P, register, seedPhyto, testClient, uniqueRea } from '../helpers/phyto-stack';
import { checkProblemShape } from '../helpers/spec-shapes';

const MITE = { type: 'TypeInfection', kind: 'plaga', id: '18', name: 'Araña amarilla' } as const;
const PERCENT = { type: 'Measure', name: 'Porcentaje', symbol: '%', code: 14 } as const;

/**
 * Issue 34, item 1, over HTTP through the local runner: a harvest registered, listed, read, amended under If-Match,
 * its history kept, a batch, the rules' refusals with nothing stored, held by a treatment's pre-harvest interval (the
 * treatments' holds reach the harvest through the core, shared/records/record-facts.ts), and an export beside a treatment in one job
 * whose `Cosecha` block the SIEX simulator validates and keeps, then deleted there with `Borrar`.
 */
const gw = gatewayCalls();
const siex = () => siexSimulatorControl(process.env.SIEX_SIMULATOR_URL!);
const PATH = '/v1/entities/agriharvests/';
const day = (daysBack: number) => ANCHOR.minus({ days: daysBack }).toFormat('dd-MM-yyyy');

const rea = uniqueRea();
const client = testClient('harvest-owner', [rea], { email: `harvest-${rea.toLowerCase()}@erp.example` });
const keys: Keys = { sidKey: client.sidKey, apiKey: client.apiKey };
const farm = sendableFarm(rea);
let f: ExportFarm;

const q = (extra: Record<string, string> = {}) => new URLSearchParams({ agrifarmId: f.agrifarmId, ...extra });
const registerHarvest = (b: unknown) => postJson(`${PATH}?${q().toString()}`, b, keys);
const list = (extra: Record<string, string> = {}) => get(`${PATH}?${q(extra).toString()}`, keys);
const recordPath = (id: string, suffix = '') => `${PATH}${encodeURIComponent(id)}${suffix}?${q().toString()}`;
const read = (id: string) => get(recordPath(id), keys);
const amend = (id: string, changes: unknown, headers: Record<string, string> = {}) =>
  call('PATCH', recordPath(id), {
    keys,
    headers: { 'Content-Type': 'application/merge-patch+json', ...headers },
    body: JSON.stringify(changes),
  });

function expectProblem(res: Reply, status: number, errors: string[]): void {
  expect([res.status, res.json?.errors?.map((e: { code: string; path: string }) => `${e.code} ${e.path}`)]).toEqual([
    status,
    errors,
  ]);
  checkProblemShape(res.json, status);
}

function created(res: Reply): { id: string; etag: string; record: any } {
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
  return { id: res.json[0].id, etag: res.headers.get('etag') ?? '', record: res.json[0] };
}

beforeAll(async () => {
  await seedPhyto({ farms: [farm], clients: [client] });
  f = { keys, client, rea, codigoRea: farm.codigoRea, ...(await farmOverHttp(keys, rea)) };
});

describe('a harvest over HTTP', () => {
  it('is registered, listed, read, amended with If-Match, its history kept, and deleted', async () => {
    const { id, etag, record } = created(
      await registerHarvest(grapesBody({ dateStart: day(3), idcp: [f.vine[2]], machine: HARVESTER })),
    );
    expect(id).toMatch(/^urn:ngsi-ld:AgriHarvest:[1-9]\d*$/);
    expect(etag).toBe('"1"');
    expect(record).toMatchObject({
      type: 'AgriHarvest',
      dateStart: day(3),
      dateEnd: day(3),
      idcp: [f.vine[2]],
      quantity: 9500,
      product: { id: '210' },
      cut: 'harvest',
      seedForSowing: false,
      leftOnSoil: false,
      exported: '0',
      exportable: true,
      exportBlockers: [],
    });
    const listed = await list({ product: '210' });
    expect([listed.status, listed.headers.get('x-total-count'), listed.json.map((r: any) => r.id)]).toEqual([
      200,
      '1',
      [id],
    ]);
    expect((await list({ product: '1' })).json).toEqual([]);
    const one = await read(id);
    expect([one.status, one.headers.get('etag'), one.json]).toEqual([200, '"1"', [record]]);

    expectProblem(await amend(id, { quantity: 9800 }, { 'If-Match': '"7"' }), 412, [
      'PRECONDITION_FAILED header.If-Match',
    ]);
    const amended = await amend(id, { quantity: 9800, detail: 'segunda pasada' }, { 'If-Match': etag });
    expect([amended.status, amended.headers.get('etag')]).toEqual([200, '"2"']);
    expect(amended.json[0]).toMatchObject({ quantity: 9800, detail: 'segunda pasada' });
    // A refused amendment changes nothing.
    expectProblem(await amend(id, { product: { type: 'TypePlantProduct', id: '1' } }), 422, [
      'HARVEST_PRODUCT_NOT_OF_CROP body.product',
    ]);
    expect((await read(id)).json[0].quantity).toBe(9800);

    const versions = await get(recordPath(id, '/history'), keys);
    expect(versions.json.map((v: any) => [v.version, v.kind])).toEqual([
      [1, 'created'],
      [2, 'amended'],
    ]);
    expect(versions.json[1].changes).toEqual(
      expect.arrayContaining([
        { field: 'quantity', old: 9500, new: 9800 },
        { field: 'detail', old: null, new: 'segunda pasada' },
      ]),
    );
    const gone = await call('DELETE', recordPath(id), { keys });
    expect([gone.status, gone.text]).toEqual([204, '']);
    expectProblem(await read(id), 404, ['RECORD_NOT_FOUND path.id']);
  });

  it('refuses every broken rule at once and stores nothing; a batch judges each item', async () => {
    const before = Number((await list()).headers.get('x-total-count'));
    expectProblem(
      await registerHarvest(
        grapesBody({
          dateStart: day(2),
          idcp: [f.olive],
          measure: { type: 'Measure', name: 't/ha', symbol: 't/ha', code: 29 },
        }),
      ),
      422,
      ['HARVEST_QUANTITY_UNIT body.measure.code', 'HARVEST_PRODUCT_NOT_OF_CROP body.product'],
    );
    expectProblem(await registerHarvest(grapesBody({ cut: 'threshing' })), 400, ['INVALID_VALUE body.cut']);
    const batch = await postJson(
      `${PATH}batch?${q().toString()}`,
      [grapesBody({ dateStart: day(2), idcp: [f.vine[0]] }), grapesBody({ dateStart: day(2), idcp: [f.olive] })],
      keys,
    );
    expect(batch.status).toBe(200);
    expect(batch.json.map((i: any) => [i.index, i.status])).toEqual([
      [0, 201],
      [1, 422],
    ]);
    expect(Number((await list()).headers.get('x-total-count'))).toBe(before + 1);
    await call('DELETE', recordPath(batch.json[0].body[0].id), { keys });
  });

  it('is exported in one job beside a treatment: SIEX holds its Cosecha block, then deletes it by Borrar', async () => {
    const treatment = await register(keys, f.agrifarmId, body({ idcp: [f.vine[1]], ...SIEX_FIELDS }));
    expect(treatment.status).toBe(201);
    const { id } = created(
      await registerHarvest(grapesBody({ dateStart: day(1), idcp: [f.vine[0], f.vine[1]], machine: HARVESTER })),
    );
    expect((await amend(id, { quantity: 12000 })).status).toBe(200);
    const started = await gw.exportCue(f, [treatment.json[0].id as string, id]);
    expect(started.status).toBe(202);
    expect((await gw.settled(keys, started.json.id)).job.status.name).toBe('FinalizadoCompleto');
    const result = await gw.result(keys, started.json.id);
    expect(result.json).toEqual({
      data: expect.arrayContaining([{ result: 'ok', id: recordNumber(id), type: 'AgriHarvest', urn: id }]),
      error: [],
    });
    const held = (await siex().notebook('Cosecha', farm.codigoRea)).filter((e) => e.idAjena === recordNumber(id));
    expect(held).toHaveLength(1);
    expect(held[0].block).toMatchObject({
      CosechaSiega: 1,
      FechaInicio: day(1).replace(/-/g, '/'),
      Cantidad: 12000,
      Unidad: 5,
      DGCs: [{ ProductoCosechado: 210 }, { ProductoCosechado: 210 }],
      Maquinaria: [{ TipoMaquinariaUNE: '070506011', Duracion: 9 }],
    });
    expect((await read(id)).json[0].exported).toBe('1');

    const deleted = await call('DELETE', recordPath(id), { keys });
    expect(deleted.status).toBe(202);
    expect((await gw.settled(keys, deleted.json.id)).job.status.name).toBe('FinalizadoCompleto');
    expect((await siex().notebook('Cosecha', farm.codigoRea)).filter((e) => e.idAjena === recordNumber(id))).toEqual(
      [],
    );
    expect((await read(id)).status).toBe(404);
  });

  it("is held by a treatment's pre-harvest interval on its enclosure and crop; NP holds nothing", async () => {
    const held = f.vine[3];
    // The acaricide (21 days on vine) in a mix with copper yesterday; MICROTHIOL on the olive, whose olive use says NP.
    const mix = body({
      idcp: [held],
      dateApplication: daysAgo(1),
      mix: [
        {
          subtype: { type: 'TypePhytosanitary', name: 'ACARICIDA', code: P.acaricide },
          dose: 0.08,
          measure: PERCENT,
          infection: MITE,
        },
      ],
    });
    const treated = await register(keys, f.agrifarmId, mix);
    expect(treated.status).toBe(201);
    const microthiol = body({
      idcp: [f.olive],
      dateApplication: daysAgo(1),
      subtype: { type: 'TypePhytosanitary', name: 'MICROTHIOL', code: P.microthiol },
      dose: 0.5,
      infection: { type: 'TypeInfection', kind: 'enfermedad', id: '42', name: 'Negrilla' },
    });
    expect((await register(keys, f.agrifarmId, microthiol)).status).toBe(201);

    const refused = await registerHarvest(grapesBody({ dateStart: day(0), idcp: [f.vine[2], held] }));
    expectProblem(refused, 422, ['PRE_HARVEST_INTERVAL_NOT_MET body.idcp[1]']);
    const safe = ANCHOR.minus({ days: 1 }).plus({ days: 21 }).toFormat('dd-MM-yyyy');
    expect(refused.json.errors[0].message).toContain(`${P.acaricide} (ACARICIDA DE PRUEBA) was applied on ${day(1)}`);
    expect(refused.json.errors[0].message).toContain(`may be harvested from ${safe} (${treated.json[0].id})`);
    const olives = { type: 'TypePlantProduct', id: '1', name: 'Aceitunas' };
    const { id } = created(await registerHarvest(grapesBody({ dateStart: day(0), idcp: [f.olive], product: olives })));
    await call('DELETE', recordPath(id), { keys });
  });
});
