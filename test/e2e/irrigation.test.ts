import { siexSimulatorControl } from '../../local/siex-simulator/control';
import { ANCHOR } from '../helpers/dataset';
import { ExportFarm, gatewayCalls, recordNumber, sendableFarm } from '../helpers/export-stack';
import { call, get, Keys, postJson, Reply } from '../helpers/http';
import { dripBody, WATER_UNITS } from '../helpers/irrigation-fixtures';
import { farmOverHttp, seedPhyto, testClient, uniqueRea } from '../helpers/phyto-stack';
import { checkProblemShape } from '../helpers/spec-shapes';

/**
 * Issue 35, item 1, over HTTP through the local runner: irrigations registered, listed, read, amended with If-Match,
 * their history kept, deleted before and after SIEX holds them, and exported in the exportCUE job, read back from the
 * SIEX simulator's notebook as `Riego` blocks valid against schema 3.11.4 (the simulator validates every section by it).
 * The gateway reads its own clock, so the days are counted back from the tests' anchor.
 */
const gw = gatewayCalls();
const siex = () => siexSimulatorControl(process.env.SIEX_SIMULATOR_URL!);
const PATH = '/v1/entities/agriirrigations/';
const day = (daysBack: number) => ANCHOR.minus({ days: daysBack }).toFormat('dd-MM-yyyy');

const rea = uniqueRea();
const client = testClient('irrigation', [rea], { email: `irrigation-${rea.toLowerCase()}@erp.example` });
const keys: Keys = { sidKey: client.sidKey, apiKey: client.apiKey };
const farm = sendableFarm(rea);
let f: ExportFarm;

const query = (extra: Record<string, string> = {}) =>
  new URLSearchParams({ agrifarmId: f.agrifarmId, ...extra }).toString();
const register = (b: unknown) => postJson(`${PATH}?${query()}`, b, keys);
const list = (extra: Record<string, string> = {}) => get(`${PATH}?${query(extra)}`, keys);
const recordPath = (id: string, suffix = '') => `${PATH}${encodeURIComponent(id)}${suffix}?${query()}`;
const read = (id: string) => get(recordPath(id), keys);
const remove = (id: string) => call('DELETE', recordPath(id), { keys });
const patch = (id: string, changes: unknown, headers: Record<string, string> = {}) =>
  call('PATCH', recordPath(id), {
    keys,
    headers: { 'Content-Type': 'application/merge-patch+json', ...headers },
    body: JSON.stringify(changes),
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

describe('irrigations over HTTP', () => {
  it('refuses bad bodies with every violation listed, and stores nothing', async () => {
    expectProblem(await register(dripBody({ dateStart: day(2), dateEnd: day(3), idcp: [f.vine[0]] })), 400, [
      'INVALID_VALUE body.dateEnd',
    ]);
    expectProblem(
      await register(
        dripBody({
          dateStart: day(2),
          dateEnd: day(1),
          idcp: [f.vine[0]],
          measure: WATER_UNITS.kg,
          energy: { type: 'TypeEnergy', id: '99', name: '' },
        }),
      ),
      422,
      ['UNKNOWN_SIEX_CODE body.energy.id', 'IRRIGATION_UNIT body.measure.code'],
    );
    expect((await list()).json).toEqual([]);
  });

  it('is registered, listed, read, amended, its history kept, deleted, and exported as Riego', async () => {
    const sent = dripBody({ dateStart: day(3), dateEnd: day(2), idcp: [f.vine[0]] });
    const { id, etag, record } = created(await register(sent));
    expect(id).toMatch(/^urn:ngsi-ld:AgriIrrigation:[1-9]\d*$/);
    expect(etag).toBe('"1"');
    expect(record).toMatchObject({
      type: 'AgriIrrigation',
      dateStart: day(3),
      dateEnd: day(2),
      quantity: 35,
      water: { m3: 35, perHa: true },
      exported: '0',
      exportable: true,
      exportBlockers: [],
    });

    const listed = await list({ system: '6' });
    expect([listed.status, listed.headers.get('x-total-count'), listed.json.map((r: any) => r.id)]).toEqual([
      200,
      '1',
      [id],
    ]);
    expect((await list({ system: '1' })).json).toEqual([]);
    const one = await read(id);
    expect([one.status, one.headers.get('etag'), one.json]).toEqual([200, '"1"', [record]]);

    expectProblem(await patch(id, { quantity: 38 }, { 'If-Match': '"7"' }), 412, [
      'PRECONDITION_FAILED header.If-Match',
    ]);
    const amended = await patch(id, { quantity: 38, meter: null }, { 'If-Match': etag });
    expect([amended.status, amended.headers.get('etag')]).toEqual([200, '"2"']);
    expect(amended.json[0]).toMatchObject({ quantity: 38, water: { m3: 38, perHa: true } });
    expect(amended.json[0].meter).toBeUndefined();
    const versions = await get(recordPath(id, '/history'), keys);
    expect(versions.json.map((v: any) => [v.version, v.kind])).toEqual([
      [1, 'created'],
      [2, 'amended'],
    ]);

    // One SIEX never received is deleted at once.
    const gone = created(await register(dripBody({ dateStart: day(1), dateEnd: day(1), idcp: [f.vine[1]] })));
    expect((await remove(gone.id)).status).toBe(204);
    expect((await read(gone.id)).status).toBe(404);

    const started = await gw.exportCue(f, [id]);
    expect(started.status).toBe(202);
    expect((await gw.settled(keys, started.json.id)).job.status.name).toBe('FinalizadoCompleto');
    expect((await gw.result(keys, started.json.id)).json).toEqual({
      data: [{ result: 'ok', id: recordNumber(id), type: 'AgriIrrigation', urn: id }],
      error: [],
    });
    const held = await siex().notebook('Riego', farm.codigoRea);
    expect(held.map((e) => e.idAjena)).toEqual([recordNumber(id)]);
    const block = held[0].block as any;
    const hectares = block.DGCs.reduce((sum: number, d: { Superficie: number }) => sum + d.Superficie, 0);
    expect(block).toMatchObject({
      FechaInicio: day(3).replace(/-/g, '/'),
      FechaFin: day(2).replace(/-/g, '/'),
      SistemaRiego: 6,
      UnidadMedida: 3,
      OrigenAgua: [{ IdOrigenAgua: 2 }],
      TipoEnergia: 4,
      BuenasPracticasRiego: [{ TipoBPR: 21 }],
    });
    expect(block.NumContador).toBeUndefined();
    expect(block.Cantidad).toBeCloseTo(38 * hectares, 2);
    expect((await read(id)).json[0].exported).toBe('1');

    // One SIEX holds is deleted there first: 202 with the job that sends it as Borrar.
    const deleted = await remove(id);
    expect(deleted.status).toBe(202);
    expect((await gw.settled(keys, deleted.json.id)).job.status.name).toBe('FinalizadoCompleto');
    expect(await siex().notebook('Riego', farm.codigoRea)).toEqual([]);
    expect((await read(id)).status).toBe(404);
  });
});
