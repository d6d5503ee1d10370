import { FarmStore } from '../../shared/farms/farm-store';
import { TableStore } from '../../shared/store/tables';
import { parseSettings } from '../../shared/config/config';
import { siexSimulatorControl } from '../../local/siex-simulator/control';
import { RunningSiexSimulator, startSiexSimulator } from '../../local/siex-simulator/server';
import { runAdminCli } from '../helpers/admin-cli';
import { uniqueRea } from '../helpers/dataset';
import { storageConnection } from '../helpers/storage';
import { HOLDING } from './iuws-fixtures';

/**
 * Issue 38, item 10: `npm run admin -- import-rea` as operators run it, against the SIEX simulator's exportarREA and
 * the test storage: a holding onboarded, the same run again changes nothing, a REA that changed is a changed farm,
 * and a holding SIEX does not know writes nothing.
 */
let sim: RunningSiexSimulator;
const siex = () => siexSimulatorControl(sim.url);
const env = () => ({ SIEX_BASE_URL: sim.url, SIEX_USERNAME: 'siex-local', SIEX_PASSWORD: 'siex-local' });
const farms = () => new FarmStore(new TableStore(parseSettings({ AzureWebJobsStorage: storageConnection() })), 0);

beforeAll(async () => {
  sim = await startSiexSimulator({ port: 0 });
});
afterAll(() => sim.stop());

describe('admin import-rea', () => {
  it('onboards a holding from the REA, idempotently, and rolls its changes over', async () => {
    const rea = uniqueRea();
    const codigoRea = `ES46${String(Date.now()).slice(-10)}`;
    const holding = { ...HOLDING, CodigoRea: codigoRea, Campana: 2026 };
    await siex().seedHolding(holding);
    const run = () =>
      runAdminCli(['import-rea', codigoRea, '--campaign', '2026', '--rea', rea], storageConnection(), env());

    const first = await run();
    expect({ code: first.code, stderr: first.stderr }).toEqual({ code: 0, stderr: '' });
    expect(first.stdout.trim()).toBe(`farm ${rea} (${codigoRea}) campaign 2026: added; 1 crop(s), 1 crop location(s)`);
    const info = await farms().lookupInfo(rea, 2026);
    const index = (await farms().readIndex(info!.farmId))!.index;
    expect(index.meta).toMatchObject({
      rea,
      codigoRea,
      year: 2026,
      name: 'Finca Los Almendros',
      ownerNif: '12345678Z',
    });
    expect(index.idcps.map((e) => [e.pol, e.parc, e.enc, e.dimension, e.dgc])).toEqual([
      ['12', '45', '1', '2.35', '4600000007'],
    ]);

    expect((await run()).stdout.trim()).toBe(
      `farm ${rea} (${codigoRea}) campaign 2026: unchanged; 1 crop(s), 1 crop location(s)`,
    );

    const [unit] = holding.UnidadesProduccion;
    await siex().seedHolding({
      ...holding,
      UnidadesProduccion: [{ ...unit, Recintos: [{ ...unit.Recintos[0], Recinto: 2, Superficie: 1.1 }] }],
    });
    expect((await run()).stdout.trim()).toBe(
      `farm ${rea} (${codigoRea}) campaign 2026: changed; 1 crop(s), 1 crop location(s), 1 added and 1 removed`,
    );
    // The farm keeps its id across a re-import: the records of the campaign stay its own.
    expect((await farms().lookupInfo(rea, 2026))!.farmId).toBe(info!.farmId);
  });

  it('writes nothing for a holding SIEX does not know, and refuses a campaign that is not a year', async () => {
    const missing = await runAdminCli(
      ['import-rea', 'ES469999999999', '--campaign', '2026'],
      storageConnection(),
      env(),
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe(
      "SIEX's REA has no holding ES469999999999 in campaign 2026: nothing was written",
    );
    expect(await farms().lookupInfo('ES469999999999', 2026)).toBeNull();
    const bad = await runAdminCli(['import-rea', 'ES469999999999', '--campaign', '26'], storageConnection(), env());
    expect(bad.code).toBe(2);
  });
});
