import { seedDressingBody } from '../helpers/protection-fixtures';
import { siexSimulatorControl } from '../../local/siex-simulator/control';
import { descriptorProblems, ENVELOPE_FIELDS, leafCount } from '../../shared/siex/cue-descriptor';
import { treatedSeedCue } from '../../shared/treated-seed/cue-block';
import { ANCHOR } from '../helpers/dataset';
import { ExportFarm, gatewayCalls, recordNumber, schemaProblems, sendableFarm } from '../helpers/export-stack';
import { Keys } from '../helpers/http';
import { created, expectProblem, kindCalls } from '../helpers/kind-calls';
import { farmOverHttp, P, seedPhyto, testClient, uniqueRea } from '../helpers/phyto-stack';

/**
 * Issue 34, item 4, over HTTP through the local runner: uses of treated seed registered, refused by their rules with
 * nothing stored (products missing where the farm treated the seed, a field-only product), listed by crop, read,
 * amended under If-Match, exported in the exportCUE job as `UsoSemillaTratada` blocks that the SIEX simulator
 * validates against schema 3.11.4 and keeps, every value SIEX received checked against the descriptor table, then
 * deleted there with `Borrar`, and at once where SIEX never had it.
 */
const gw = gatewayCalls();
const siex = () => siexSimulatorControl(process.env.SIEX_SIMULATOR_URL!);
const at = (daysBack: number) => ANCHOR.minus({ days: daysBack }).toFormat('dd-MM-yyyy 09:00:00');

const rea = uniqueRea();
const client = testClient('seed-owner', [rea], { email: `seed-${rea.toLowerCase()}@erp.example` });
const keys: Keys = { sidKey: client.sidKey, apiKey: client.apiKey };
const farm = sendableFarm(rea);
let f: ExportFarm;
const seeds = kindCalls('/v1/entities/agritreatedseeds/', keys, () => f.agrifarmId);

const ML_PER_KG = { type: 'Measure', name: 'ml/kg', symbol: 'ml/kg', code: 52 };
const LATITUDE = { type: 'TypePhytosanitary', name: 'LATITUDE XL', code: 'ES-00080' };
// The test register's sulphur: field uses only (vine, olive).
const SULPHUR = { type: 'TypePhytosanitary', name: 'MICROTHIOL SPECIAL DISPERSS', code: P.microthiol };

const dressing = (daysBack: number, o: Record<string, unknown> = {}) => ({ ...seedDressingBody(at(daysBack)), ...o });

/** 300 kg of maize seed (PRODUCTOS 4) bought treated abroad: no products named. */
const bought = (daysBack: number) =>
  dressing(daysBack, {
    treatment: { type: 'TypeSeedTreatment', id: '5' },
    crop: { type: 'TypeCrop', id: '4', name: 'MAÍZ' },
    quantity: 300,
    products: undefined,
  });

beforeAll(async () => {
  await seedPhyto({ farms: [farm], clients: [client] });
  f = { keys, client, rea, codigoRea: farm.codigoRea, ...(await farmOverHttp(keys, rea)) };
});

describe('treated seed over HTTP', () => {
  it('refuses missing products and a product with no seed use, every violation at once, and stores nothing', async () => {
    expectProblem(await seeds.register(dressing(2, { products: undefined })), 422, [
      'SEED_PRODUCTS_REQUIRED body.products',
    ]);
    expectProblem(
      await seeds.register(
        dressing(2, {
          treatment: { type: 'TypeSeedTreatment', id: '3' },
          measure: { type: 'Measure', name: 'L', symbol: 'L', code: 4 },
          products: [
            { subtype: LATITUDE, dose: 2, measure: ML_PER_KG },
            { subtype: SULPHUR, dose: 2, measure: ML_PER_KG },
          ],
        }),
      ),
      422,
      ['TREATED_QUANTITY_UNIT body.measure.code', 'PRODUCT_NOT_FOR_CROP body.products[1].subtype'],
    );
    expect((await seeds.list()).json).toEqual([]);
  });

  it('is registered, listed, read, amended with If-Match, exported to SIEX and deleted there with Borrar', async () => {
    const { id, etag, record } = created(await seeds.register(dressing(2)));
    expect(id).toMatch(/^urn:ngsi-ld:AgriTreatedSeed:[1-9]\d*$/);
    expect(etag).toBe('"1"');
    expect(record).toMatchObject({ type: 'AgriTreatedSeed', exported: '0', exportable: true, exportBlockers: [] });
    const maize = created(await seeds.register(bought(3))).id;

    const wheat = await seeds.list({ crop: '1' });
    expect([wheat.status, wheat.headers.get('x-total-count'), wheat.json.map((r: any) => r.id)]).toEqual([
      200,
      '1',
      [id],
    ]);
    expect((await seeds.list()).json.map((r: any) => r.id)).toEqual([id, maize]);
    expect((await seeds.read(id)).json).toEqual([record]);

    expect((await seeds.patch(id, { lot: 'L-118' }, { 'If-Match': '"9"' })).status).toBe(412);
    const amended = await seeds.patch(id, { lot: 'L-118' }, { 'If-Match': etag });
    expect([amended.status, amended.headers.get('etag'), amended.json[0].lot]).toEqual([200, '"2"', 'L-118']);

    const started = await gw.exportCue(f, [id, maize]);
    expect(started.status).toBe(202);
    expect((await gw.settled(keys, started.json.id)).job.status.name).toBe('FinalizadoCompleto');
    const held = await siex().notebook('UsoSemillaTratada', farm.codigoRea);
    const block = (x: string) => held.find((e) => e.idAjena === recordNumber(x))?.block;
    expect(block(id)).toEqual({
      IdAjenaSemillaTrat: recordNumber(id),
      Tratamiento: 2,
      Fecha: at(2).slice(0, 10).replace(/-/g, '/'),
      Producto: 1,
      NumeroLote: 'L-118',
      Cantidad: 180,
      ProductosFito: [{ TipoProducto: 1, NumRegistro: 'ES-00080', Cantidad: 0.36, Unidad: 4 }],
      Eficacia: 1,
    });
    expect(block(maize)).toMatchObject({ Tratamiento: 5, Producto: 4, Cantidad: 300 });
    expect(block(maize)).not.toHaveProperty('ProductosFito');
    expect((await seeds.read(id)).json[0].exported).toBe('1');
    // What SIEX received, value by value, against the descriptor table and the schema.
    const mine = (await siex().submissions()).filter(
      (s: any) => s.document?.CUADERNO?.[0]?.CodigoRea === farm.codigoRea,
    );
    const fields = { ...ENVELOPE_FIELDS, ...treatedSeedCue.fields };
    expect(mine.flatMap((s: any) => descriptorProblems(fields, s.document))).toEqual([]);
    expect(mine.reduce((n: number, s: any) => n + leafCount(s.document), 0)).toBeGreaterThan(15);
    expect(schemaProblems(mine)).toEqual([]);

    const deleted = await seeds.remove(id);
    expect(deleted.status).toBe(202);
    expect((await gw.settled(keys, deleted.json.id)).job.status.name).toBe('FinalizadoCompleto');
    expect((await siex().notebook('UsoSemillaTratada', farm.codigoRea)).map((e) => e.idAjena)).toEqual([
      recordNumber(maize),
    ]);
    expect((await seeds.read(id)).status).toBe(404);
  });

  it('deletes at once a record SIEX never received', async () => {
    const { id } = created(await seeds.register(bought(1)));
    expect((await seeds.remove(id)).status).toBe(204);
    expect((await seeds.read(id)).status).toBe(404);
  });
});
