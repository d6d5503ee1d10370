import { siexSimulatorControl } from '../../local/siex-simulator/control';
import { ANCHOR } from '../helpers/dataset';
import { ExportFarm, gatewayCalls, recordNumber, sendableFarm } from '../helpers/export-stack';
import { mineralBody, slurryBody } from '../helpers/fertilization-fixtures';
import { get, Keys } from '../helpers/http';
import { created, expectProblem, kindCalls } from '../helpers/kind-calls';
import { farmOverHttp, seedPhyto, testClient, uniqueRea } from '../helpers/phyto-stack';
import { NPK_15_15_15, planBody } from '../helpers/plan-fixtures';

/**
 * Issue 35, item 3, over HTTP through the local runner: fertilization plans registered, refused, listed, read, amended,
 * their history kept, deleted before and after SIEX holds them, and exported in the exportCUE job, read back from the
 * SIEX simulator's notebook as `PlanAbonado` blocks valid against schema 3.11.4 (the simulator validates every section
 * by it); then the nutrient balance of a location with a plan and three fertilizations, computed by hand. The
 * gateway reads its own clock, so the days are counted back from the tests' anchor.
 */
const gw = gatewayCalls();
const siex = () => siexSimulatorControl(process.env.SIEX_SIMULATOR_URL!);
const day = (daysBack: number) => ANCHOR.minus({ days: daysBack }).toFormat('dd-MM-yyyy');

const rea = uniqueRea();
const client = testClient('plan', [rea], { email: `plan-${rea.toLowerCase()}@erp.example` });
const keys: Keys = { sidKey: client.sidKey, apiKey: client.apiKey };
const farm = sendableFarm(rea);
let f: ExportFarm;

const plans = kindCalls('/v1/entities/agrifertilizationplans/', keys, () => f.agrifarmId);
const fertilizations = kindCalls('/v1/entities/agrifertilizes/', keys, () => f.agrifarmId);
const balance = (idcp?: string) =>
  get(`/v1/siex/nutrientbalance?${plans.query(idcp === undefined ? {} : { idcp })}`, keys);

beforeAll(async () => {
  await seedPhyto({ farms: [farm], clients: [client] });
  f = { keys, client, rea, codigoRea: farm.codigoRea, ...(await farmOverHttp(keys, rea)) };
});

describe('fertilization plans over HTTP', () => {
  it('refuses bad bodies with every violation listed, and stores nothing', async () => {
    expectProblem(await plans.register(planBody({ date: day(2), idcp: [f.vine[0]], yieldTarget: 0 })), 400, [
      'INVALID_VALUE body.yieldTarget',
    ]);
    expectProblem(
      await plans.register(
        planBody({
          date: day(2),
          idcp: [f.vine[0]],
          needs: { n: 1000.01, p2o5: 30, k2o: 90 },
          previousCrop: { type: 'TypeCrop', id: '99999', name: '' },
        }),
      ),
      422,
      ['UNKNOWN_SIEX_CODE body.previousCrop.id', 'QUANTITY_OUT_OF_BOUNDS body.needs.n'],
    );
    expect((await plans.list()).json).toEqual([]);
  });

  it('is registered, listed, read, amended, its history kept, deleted, and exported as PlanAbonado', async () => {
    const { id, etag, record } = created(await plans.register(planBody({ date: day(3), idcp: [f.vine[2]] })));
    expect(id).toMatch(/^urn:ngsi-ld:AgriFertilizationPlan:[1-9]\d*$/);
    expect(record).toMatchObject({
      type: 'AgriFertilizationPlan',
      date: day(3),
      needs: { n: 60, p2o5: 30, k2o: 90 },
      exported: '0',
      exportable: true,
      exportBlockers: [],
    });

    const listed = await plans.list({ previousCrop: '102' });
    expect([listed.status, listed.headers.get('x-total-count'), listed.json.map((r: any) => r.id)]).toEqual([
      200,
      '1',
      [id],
    ]);
    expect((await plans.list({ previousCrop: '1' })).json).toEqual([]);
    expect((await plans.read(id)).json).toEqual([record]);

    const amended = await plans.patch(id, { needs: { n: 55 } }, { 'If-Match': etag });
    expect([amended.status, amended.headers.get('etag'), amended.json[0].needs]).toEqual([
      200,
      '"2"',
      { n: 55, p2o5: 30, k2o: 90 },
    ]);
    const versions = await get(
      `/v1/entities/agrifertilizationplans/${encodeURIComponent(id)}/history?${plans.query()}`,
      keys,
    );
    expect(versions.json.map((v: any) => [v.version, v.kind])).toEqual([
      [1, 'created'],
      [2, 'amended'],
    ]);

    const gone = created(await plans.register(planBody({ date: day(1), idcp: [f.vine[3]] })));
    expect((await plans.remove(gone.id)).status).toBe(204);
    expect((await plans.read(gone.id)).status).toBe(404);

    const started = await gw.exportCue(f, [id]);
    expect(started.status).toBe(202);
    expect((await gw.settled(keys, started.json.id)).job.status.name).toBe('FinalizadoCompleto');
    const held = await siex().notebook('PlanAbonado', farm.codigoRea);
    expect(held.map((e) => e.idAjena)).toEqual([recordNumber(id)]);
    expect(held[0].block).toMatchObject({
      NecesidadUFN: 55,
      NecesidadUFP2O5: 30,
      NecesidadUFK2O: 90,
      ObjetivoProduccion: 8000,
      CultivoPrecedente: 102,
      Herramienta: true,
      FechaGeneracion: day(3).replace(/-/g, '/'),
    });
    expect((held[0].block as any).DGCs).toEqual([{ CodigoDGC: expect.any(Number), CodigoCultivo: 102 }]);

    const deleted = await plans.remove(id);
    expect(deleted.status).toBe(202);
    expect((await gw.settled(keys, deleted.json.id)).job.status.name).toBe('FinalizadoCompleto');
    expect(await siex().notebook('PlanAbonado', farm.codigoRea)).toEqual([]);
    expect((await plans.read(id)).status).toBe(404);
  });

  it("balances a location's plan against its three fertilizations, by hand", async () => {
    const [here, beside] = [f.vine[0], f.vine[1]];
    const plan = created(
      await plans.register(planBody({ date: day(4), idcp: [here], needs: { n: 260, p2o5: 109.5, k2o: 100 } })),
    );
    // 300 kg/ha at 27 % N: 81 kg N/ha.
    const can = created(await fertilizations.register(mineralBody({ dateStart: day(3), idcp: [here] })));
    // 200 kg/ha of NPK 15-15-15 on 1.25 ha of two enclosures of 1.25 ha each: 30 kg/ha of each on half of each,
    // 15 kg/ha of each location.
    const npk = created(
      await fertilizations.register(
        mineralBody({ dateStart: day(2), idcp: [here, beside], material: NPK_15_15_15, dose: 200, surface: '1.25' }),
      ),
    );
    // 30 m3/ha of pig slurry at 1.05 kg/L: 31,500 kg/ha at 0.5 % N, 0.3 % P2O5, 0.4 % K2O.
    const slurry = created(await fertilizations.register(slurryBody({ dateStart: day(1), idcp: [here] })));

    const res = await balance(here);
    expect(res.status).toBe(200);
    expect(res.json).toEqual([
      {
        idcp: Number(here),
        crop: { typecrop: { id: '102', name: 'VIÑA' }, code: 1001, name: 'TEMPRANILLO' },
        campaign: ANCHOR.year,
        plan: { record: plan.id, date: day(4), needs: { n: 260, p2o5: 109.5, k2o: 100 } },
        // N 81 + 15 + 157.5; P2O5 0 + 15 + 94.5, the plan's own figure (not past it); K2O 0 + 15 + 126, past 100.
        applied: { n: 253.5, p2o5: 109.5, k2o: 141 },
        fertilizations: [
          { record: can.id, date: day(3), n: 81, p2o5: 0, k2o: 0 },
          { record: npk.id, date: day(2), n: 15, p2o5: 15, k2o: 15 },
          { record: slurry.id, date: day(1), n: 157.5, p2o5: 94.5, k2o: 126 },
        ],
        exceeds: ['k2o'],
      },
    ]);

    const all = await balance();
    expect(all.json.find((b: any) => b.idcp === Number(beside))).toMatchObject({
      plan: null,
      applied: { n: 15, p2o5: 15, k2o: 15 },
      exceeds: [],
    });
    // A deleted fertilization no longer counts.
    expect((await fertilizations.remove(slurry.id)).status).toBe(204);
    expect((await balance(here)).json[0]).toMatchObject({ applied: { n: 96, p2o5: 15, k2o: 15 }, exceeds: [] });
    expectProblem(await balance('999999'), 404, ['IDCP_NOT_FOUND query.idcp']);
  });
});
