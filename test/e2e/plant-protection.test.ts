import { siexSimulatorControl } from '../../local/siex-simulator/control';
import { ANCHOR } from '../helpers/dataset';
import { ExportFarm, gatewayCalls, recordNumber, sendableFarm } from '../helpers/export-stack';
import { call, get, Keys, postJson, Reply } from '../helpers/http';
import { farmOverHttp, P, seedPhyto, testClient, uniqueRea } from '../helpers/phyto-stack';
import { checkProblemShape } from '../helpers/spec-shapes';
import { facilityBody, postHarvestBody } from '../helpers/protection-fixtures';

/**
 * Issue 34, items 2 and 3, over HTTP through the local runner: a post-harvest treatment and a store treatment each
 * registered, listed, read, amended under If-Match, refused by their rules with nothing stored (a field-only product
 * after harvest, a weed where the block has no place for one), exported in one job whose `TratamientosPostCosecha`
 * and `TratamientosEdifInstalaciones` blocks the SIEX simulator validates against schema 3.11.4 and keeps, then
 * deleted there with `Borrar`.
 */
const gw = gatewayCalls();
const siex = () => siexSimulatorControl(process.env.SIEX_SIMULATOR_URL!);
const at = (daysBack: number) => ANCHOR.minus({ days: daysBack }).toFormat('dd-MM-yyyy 10:00:00');

const rea = uniqueRea();
const client = testClient('protect-owner', [rea], { email: `protect-${rea.toLowerCase()}@erp.example` });
const keys: Keys = { sidKey: client.sidKey, apiKey: client.apiKey };
const farm = sendableFarm(rea);
let f: ExportFarm;

// The test register's sulphur: field uses only (vine, olive).
const SULPHUR = { type: 'TypePhytosanitary', name: 'MICROTHIOL SPECIAL DISPERSS', code: P.microthiol };
const PERCENT = { type: 'Measure', name: 'Porcentaje', symbol: '%', code: 14 };
const WEED = { type: 'TypeInfection', kind: 'mala_hierba', id: '1', name: 'Malas hierbas' };

/** Each kind: its collection, a valid body, a field-only product in it, and what its block must hold. */
const KINDS = [
  {
    name: 'post-harvest treatment',
    path: '/v1/entities/agripostharvesttreatments/',
    type: 'AgriPostHarvestTreatment',
    section: 'TratamientosPostCosecha',
    body: (daysBack: number) => postHarvestBody(at(daysBack)),
    amendment: { detail: 'línea 2' },
    block: {
      ProductoVegetal: 116,
      Cantidad: 24000,
      ProductosFito: [{ NumRegistro: '16232', Cantidad: 24, Unidad: 4 }],
    },
  },
  {
    name: 'store treatment',
    path: '/v1/entities/agrifacilitytreatments/',
    type: 'AgriFacilityTreatment',
    section: 'TratamientosEdifInstalaciones',
    body: (daysBack: number) => facilityBody(at(daysBack)),
    amendment: { dose: 0.6 },
    block: {
      Edificaciones: [{ IdEdificacion: 4600012, Volumen: 850, Unidad: 3 }],
      ProductosFito: [{ NumRegistro: '25710', Dosis: 0.6, Unidad: 78 }],
    },
  },
] as const;

const q = () => new URLSearchParams({ agrifarmId: f.agrifarmId }).toString();

function created(res: Reply): { id: string; etag: string; record: any } {
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
  return { id: res.json[0].id, etag: res.headers.get('etag') ?? '', record: res.json[0] };
}

beforeAll(async () => {
  await seedPhyto({ farms: [farm], clients: [client] });
  f = { keys, client, rea, codigoRea: farm.codigoRea, ...(await farmOverHttp(keys, rea)) };
});

describe.each(KINDS)('a $name over HTTP', (kind) => {
  const register = (b: unknown) => postJson(`${kind.path}?${q()}`, b, keys);
  const recordPath = (id: string) => `${kind.path}${encodeURIComponent(id)}?${q()}`;
  const list = () => get(`${kind.path}?${q()}`, keys);
  const amend = (id: string, changes: unknown, etag: string) =>
    call('PATCH', recordPath(id), {
      keys,
      headers: { 'Content-Type': 'application/merge-patch+json', 'If-Match': etag },
      body: JSON.stringify(changes),
    });

  it('refuses a field-only product and a weed, every violation at once, and stores nothing', async () => {
    const before = Number((await list()).headers.get('x-total-count'));
    const res = await register({ ...kind.body(2), subtype: SULPHUR, dose: 0.5, measure: PERCENT, infection: WEED });
    expect(res.status).toBe(422);
    expect(res.json.errors.map((e: { code: string; path: string }) => `${e.code} ${e.path}`)).toEqual(
      expect.arrayContaining(['PRODUCT_NOT_FOR_CROP body.subtype', 'INFECTION_KIND_NOT_IN_BLOCK body.infection.kind']),
    );
    checkProblemShape(res.json, 422);
    expect(Number((await list()).headers.get('x-total-count'))).toBe(before);
  });

  it('is registered, listed, read, amended with If-Match, exported to SIEX and deleted there with Borrar', async () => {
    const { id, etag, record } = created(await register(kind.body(2)));
    expect(id).toMatch(new RegExp(`^urn:ngsi-ld:${kind.type}:[1-9]\\d*$`));
    expect(etag).toBe('"1"');
    expect(record).toMatchObject({ type: kind.type, exported: '0', exportable: true, exportBlockers: [] });
    expect((await list()).json.map((r: { id: string }) => r.id)).toContain(id);
    expect((await get(recordPath(id), keys)).json[0]).toMatchObject({ id, type: kind.type });

    expect((await amend(id, kind.amendment, '"9"')).status).toBe(412);
    const amended = await amend(id, kind.amendment, etag);
    expect([amended.status, amended.headers.get('etag')]).toEqual([200, '"2"']);
    expect(amended.json[0]).toMatchObject(kind.amendment);

    const started = await gw.exportCue(f, [id]);
    expect(started.status).toBe(202);
    expect((await gw.settled(keys, started.json.id)).job.status.name).toBe('FinalizadoCompleto');
    expect((await gw.result(keys, started.json.id)).json).toEqual({
      data: [{ result: 'ok', id: recordNumber(id), type: kind.type, urn: id }],
      error: [],
    });
    const held = (await siex().notebook(kind.section, farm.codigoRea)).filter((e) => e.idAjena === recordNumber(id));
    expect(held).toHaveLength(1);
    expect(held[0].block).toMatchObject(kind.block);
    expect((await get(recordPath(id), keys)).json[0].exported).toBe('1');

    const deleted = await call('DELETE', recordPath(id), { keys });
    expect(deleted.status).toBe(202);
    expect((await gw.settled(keys, deleted.json.id)).job.status.name).toBe('FinalizadoCompleto');
    expect((await siex().notebook(kind.section, farm.codigoRea)).filter((e) => e.idAjena === recordNumber(id))).toEqual(
      [],
    );
    expect((await get(recordPath(id), keys)).status).toBe(404);
  });

  it('deletes at once a record SIEX never received', async () => {
    const { id } = created(await register(kind.body(1)));
    expect((await call('DELETE', recordPath(id), { keys })).status).toBe(204);
    expect((await get(recordPath(id), keys)).status).toBe(404);
  });
});
