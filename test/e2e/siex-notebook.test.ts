import { randomInt } from 'node:crypto';
import { siexSimulatorControl } from '../../local/siex-simulator/control';
import { CAMPAIGN } from '../helpers/dataset';
import { ExportFarm, exportFarm, gatewayCalls, recordNumber, registerRecords } from '../helpers/export-stack';
import { get, Reply } from '../helpers/http';
import { farmOverHttp, phytoFarm, seedPhyto, testClient, uniqueRea } from '../helpers/phyto-stack';
import { checkProblemShape } from '../helpers/spec-shapes';

/**
 * Issue 38, item 10, over HTTP through the local runner and the SIEX simulator: a farm campaign's records exported,
 * one block seeded into the simulator's notebook as if another notebook had entered it, and one exported record that
 * SIEX lost; GET /v1/siex/notebook lists each where it belongs, read through the simulator's `exportar`.
 */
const gw = gatewayCalls();
const siex = () => siexSimulatorControl(process.env.SIEX_SIMULATOR_URL!);
const notebook = (f: Pick<ExportFarm, 'agrifarmId' | 'keys'>) =>
  get(`/v1/siex/notebook?agrifarmId=${encodeURIComponent(f.agrifarmId)}`, f.keys);

function expectProblem(res: Reply, status: number, codes: string[]): void {
  expect([res.status, res.json?.errors?.map((e: { code: string }) => e.code)]).toEqual([status, codes]);
  checkProblemShape(res.json, status);
}

let f: ExportFarm;
let urns: string[];

beforeAll(async () => {
  f = await exportFarm('notebook');
  urns = await registerRecords(f, 3);
  const started = await gw.exportCue(f, urns.slice(0, 2));
  expect(started.status).toBe(202);
  expect((await gw.settled(f.keys, started.json.id)).job.status.name).toBe('FinalizadoCompleto');
});

describe('GET /v1/siex/notebook', () => {
  it('lists what SIEX holds as the gateway says, what only SIEX holds, and what SIEX lost', async () => {
    const fresh = await notebook(f);
    expect(fresh.status).toBe(200);
    expect(fresh.json.matched.map((m: { record: string }) => m.record).sort()).toEqual(urns.slice(0, 2).sort());
    expect([fresh.json.onlyInSiex, fresh.json.missingInSiex]).toEqual([[], []]);

    // Another notebook entered an irrigation this campaign, and one the campaign before (not this campaign's).
    const elsewhere = 9_000_000_000 + randomInt(900_000_000);
    const block = (id: number, year: number) => ({
      IdAjenaRiego: id,
      FechaInicio: `20/04/${year}`,
      FechaFin: `20/04/${year}`,
      SistemaRiego: 2,
      Cantidad: 35,
      UnidadMedida: 1,
      DGCs: [{ CodigoDGC: 1 }],
    });
    await siex().seedEntry({
      codigoRea: f.codigoRea,
      section: 'Riego',
      notebook: 77,
      block: block(elsewhere, CAMPAIGN),
    });
    await siex().seedEntry({ codigoRea: f.codigoRea, section: 'Riego', block: block(elsewhere + 1, CAMPAIGN - 1) });
    // SIEX lost the second record's block (a treatment on one crop is one block, its IdAjena the record's id).
    await siex().forgetEntry('TratamFito', recordNumber(urns[1]));

    const res = await notebook(f);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      agrifarmId: f.agrifarmId,
      codigoRea: f.codigoRea,
      campaign: CAMPAIGN,
      sections: [
        { section: 'Riego', matched: 0, onlyInSiex: 1, missingInSiex: 0 },
        { section: 'TratamFito', matched: 1, onlyInSiex: 0, missingInSiex: 1 },
      ],
      matched: [{ section: 'TratamFito', idAjena: recordNumber(urns[0]), record: urns[0] }],
      onlyInSiex: [{ section: 'Riego', idAjena: elsewhere, notebook: '77', block: block(elsewhere, CAMPAIGN) }],
      missingInSiex: [{ section: 'TratamFito', idAjena: recordNumber(urns[1]), record: urns[1], state: 'exported' }],
    });
    // The record never exported is in no list.
    expect(JSON.stringify(res.json)).not.toContain(`"${urns[2]}"`);
  });

  it('answers 404 for a farm the client cannot see, and 422 for a farm without a REA code', async () => {
    const rea = uniqueRea();
    const client = testClient('notebook-no-code', [rea]);
    await seedPhyto({ farms: [phytoFarm(rea)], clients: [client] });
    const keys = { sidKey: client.sidKey, apiKey: client.apiKey };
    const own = await farmOverHttp(keys, rea);
    expectProblem(await notebook({ agrifarmId: f.agrifarmId, keys }), 404, ['AGRIFARM_NOT_FOUND']);
    expectProblem(await notebook({ agrifarmId: own.agrifarmId, keys }), 422, ['FARM_WITHOUT_REA_CODE']);
    expectProblem(await get('/v1/siex/notebook', keys), 400, ['REQUIRED']);
  });
});
