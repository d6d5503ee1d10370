import { siexSimulatorControl } from '../../local/siex-simulator/control';
import { ExportFarm, gatewayCalls, recordNumber, sendableFarm } from '../helpers/export-stack';
import { call, get, Keys, postJson, Reply } from '../helpers/http';
import { APPLICATORS, body, daysAgo, farmOverHttp, seedPhyto, testClient, uniqueRea } from '../helpers/phyto-stack';
import { checkProblemShape } from '../helpers/spec-shapes';

/**
 * Issue 34 item 5 over HTTP through the local runner: a field treatment that is a non-chemical measure alone
 * (`otherMeasure`, no product) is registered, read, exported in a `TratamFito` with `OtrasActuacionesFito` and no
 * `ProductosFito` (the SIEX simulator validates it against schema 3.11.4 and keeps it), and deleted there; a measure
 * beside a product, and a measure missing what FEGA's descriptor asks, are refused with nothing stored.
 */
const gw = gatewayCalls();
const siex = () => siexSimulatorControl(process.env.SIEX_SIMULATOR_URL!);

const rea = uniqueRea();
const client = testClient('measure-owner', [rea], { email: `measure-${rea.toLowerCase()}@erp.example` });
const keys: Keys = { sidKey: client.sidKey, apiKey: client.apiKey };
const farm = sendableFarm(rea);
let f: ExportFarm & { vine: string[] };

const PATH = '/v1/entities/agriphytosanitarys/';
const q = () => new URLSearchParams({ agrifarmId: f.agrifarmId }).toString();
const register = (b: unknown) => postJson(`${PATH}?${q()}`, b, keys);
const recordPath = (id: string) => `${PATH}${encodeURIComponent(id)}?${q()}`;
const count = async () => Number((await get(`${PATH}?${q()}`, keys)).headers.get('x-total-count'));

/** Beneficial organisms released (TIPO_MEDIDA_FITOSANITARIA 1) against the yellow mite, by hand, on the first vine. */
function measureBody(measure: Record<string, unknown> = {}): Record<string, unknown> {
  const { subtype: _s, dose: _d, measure: _m, ...pass } = body({ idcp: [f.vine[0]], dateApplication: daysAgo(1) });
  return {
    ...pass,
    applicator: { user: { type: 'UserMetadata', nif: APPLICATORS.basico.nif, ropo: APPLICATORS.basico.ropo } },
    infection: { type: 'TypeInfection', kind: 'plaga', id: '18', name: 'Araña amarilla' },
    tj: [{ type: 'TypeJustification', id: '2' }],
    efficacy: { type: 'TypeEfficacy', id: '1' },
    manual: true,
    machine: [{ type: 'Machine', id: '060303013', name: 'A mano', ref: 'SUELTA-1' }],
    otherMeasure: {
      type: 'TypePhytoMeasure',
      id: '1',
      quantity: 50000,
      measure: { type: 'Measure', name: 'Unidades/ha', symbol: 'Unidades/ha', code: 16 },
      mdfRegistration: 'MDF-00042',
      ...measure,
    },
  };
}

const errorsOf = (res: Reply) => res.json.errors.map((e: { code: string; path: string }) => `${e.code} ${e.path}`);

beforeAll(async () => {
  await seedPhyto({ farms: [farm], clients: [client] });
  const found = await farmOverHttp(keys, rea);
  f = { keys, client, rea, codigoRea: farm.codigoRea, ...found };
});

describe('a non-chemical measure over HTTP', () => {
  it('refuses a measure beside a product (422 PRODUCT_AND_MEASURE), and one without its MDF number, storing nothing', async () => {
    const before = await count();
    const product = body();
    const mixed = await register({ ...measureBody(), subtype: product.subtype, dose: product.dose });
    expect(mixed.status).toBe(422);
    expect(errorsOf(mixed)).toEqual(['PRODUCT_AND_MEASURE body.subtype', 'PRODUCT_AND_MEASURE body.dose']);
    checkProblemShape(mixed.json, 422);
    const unregistered = await register(measureBody({ mdfRegistration: null }));
    expect([unregistered.status, errorsOf(unregistered)]).toEqual([
      422,
      ['MDF_REGISTRATION_REQUIRED body.otherMeasure.mdfRegistration'],
    ]);
    expect(await count()).toBe(before);
  });

  it('is registered with no product, exported as OtrasActuacionesFito without ProductosFito, and deleted with Borrar', async () => {
    const res = await register(measureBody());
    if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
    const record = res.json[0];
    expect(record).toMatchObject({ subtype: null, dose: '', measure: null, exportable: true, exportBlockers: [] });
    expect(record.otherMeasure).toMatchObject({ type: 'TypePhytoMeasure', id: '1', quantity: 50000 });
    // A measure names no product: the product filter does not find it.
    expect((await get(`${PATH}?${q()}&product=ES-11179`, keys)).json.map((r: { id: string }) => r.id)).not.toContain(
      record.id,
    );

    const started = await gw.exportCue(f, [record.id]);
    expect(started.status).toBe(202);
    expect((await gw.settled(keys, started.json.id)).job.status.name).toBe('FinalizadoCompleto');
    const held = (await siex().notebook('TratamFito', farm.codigoRea)).filter(
      (e) => e.idAjena === recordNumber(record.id),
    );
    expect(held).toHaveLength(1);
    expect(held[0].block).not.toHaveProperty('ProductosFito');
    expect(held[0].block).toMatchObject({
      OtrasActuacionesFito: { TipoMedida: 1, Cantidad: 50000, Unidad: 16, NumRegistroMDF: 'MDF-00042' },
      ProblematicaFito: { ArtropodosGasteropodos: { TipoPlaga: [18] } },
    });

    const deleted = await call('DELETE', recordPath(record.id), { keys });
    expect(deleted.status).toBe(202);
    expect((await gw.settled(keys, deleted.json.id)).job.status.name).toBe('FinalizadoCompleto');
    expect(
      (await siex().notebook('TratamFito', farm.codigoRea)).filter((e) => e.idAjena === recordNumber(record.id)),
    ).toEqual([]);
  });
});
