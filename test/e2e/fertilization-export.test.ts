import { siexSimulatorControl } from '../../local/siex-simulator/control';
import { Farm } from '../../shared/farms/farm';
import { ANCHOR } from '../helpers/dataset';
import { ExportFarm, gatewayCalls, recordNumber, sendableFarm, SIEX_FIELDS } from '../helpers/export-stack';
import { manureBody, mineralBody, slurryBody } from '../helpers/fertilization-fixtures';
import { call, Keys, postJson, Reply } from '../helpers/http';
import { body, farmOverHttp, register, seedPhyto, testClient, uniqueRea } from '../helpers/phyto-stack';

/**
 * Issue 25's "Done when" over HTTP: the three fertilizations (a mineral fertilizer, a slurry spread with an accepted
 * practice, livestock manure on a nitrate-vulnerable enclosure), each registered and amended, exported together with
 * a treatment in one job, and read back from the SIEX simulator's notebook: one `Fertilizacion` block each under its
 * IdAjenaFerti, as amended, beside the treatment's `TratamFito`.
 */
const gw = gatewayCalls();
const siex = () => siexSimulatorControl(process.env.SIEX_SIMULATOR_URL!);
const PATH = '/v1/entities/agrifertilizes/';
const day = (daysBack: number) => ANCHOR.minus({ days: daysBack }).toFormat('dd-MM-yyyy');

const rea = uniqueRea();
/** A farm whose back office does not say whether it manages its inputs sustainably (GestionSostInsu). */
const silentRea = uniqueRea();
const client = testClient('ferti-export', [rea, silentRea], { email: `ferti-export-${rea.toLowerCase()}@erp.example` });
const keys: Keys = { sidKey: client.sidKey, apiKey: client.apiKey };
/** A farm SIEX can take, its first vine enclosure in a nitrate-vulnerable zone. */
const farm: Farm & { codigoRea: string } = (() => {
  const f = sendableFarm(rea);
  return {
    ...f,
    crops: f.crops.map((c, ci) => ({
      ...c,
      parcels: c.parcels.map((p, pi) => ({
        ...p,
        sigpac: p.sigpac.map((s, si) => (ci === 0 && pi === 0 && si === 0 ? { ...s, nitrateVulnerable: true } : s)),
      })),
    })),
  };
})();
const silentFarm = (() => {
  const { sustainableInputs: _, ...f } = sendableFarm(silentRea);
  return f;
})();
let exportFarm: ExportFarm;

const recordPath = (id: string) =>
  `${PATH}${encodeURIComponent(id)}?agrifarmId=${encodeURIComponent(exportFarm.agrifarmId)}`;
const read = (id: string) => call('GET', recordPath(id), { keys });
const registerFertilization = (b: unknown) =>
  postJson(`${PATH}?agrifarmId=${encodeURIComponent(exportFarm.agrifarmId)}`, b, keys);
const amend = (id: string, changes: unknown) =>
  call('PATCH', recordPath(id), {
    keys,
    headers: { 'Content-Type': 'application/merge-patch+json' },
    body: JSON.stringify(changes),
  });

function createdId(res: Reply): string {
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
  expect(res.json[0]).toMatchObject({ exportable: true, exportBlockers: [] });
  return res.json[0].id;
}

beforeAll(async () => {
  await seedPhyto({ farms: [farm, silentFarm], clients: [client] });
  exportFarm = { keys, client, rea, codigoRea: farm.codigoRea, ...(await farmOverHttp(keys, rea)) };
});

describe('treatments and fertilizations in one export job', () => {
  it('sends every record in one job, and SIEX holds each fertilization as amended beside the treatment', async () => {
    const f = exportFarm;
    const treatment = await register(keys, f.agrifarmId, body({ idcp: [f.vine[1]], ...SIEX_FIELDS }));
    expect(treatment.status).toBe(201);
    const mineral = createdId(await registerFertilization(mineralBody({ dateStart: day(3), idcp: [f.vine[2]] })));
    const slurry = createdId(await registerFertilization(slurryBody({ dateStart: day(2), idcp: [f.vine[3]] })));
    const manure = createdId(await registerFertilization(manureBody(20, { dateStart: day(2), idcp: [f.vine[0]] })));
    // Each amended before it is sent: SIEX must hold the corrected values.
    expect((await amend(mineral, { dose: 250 })).status).toBe(200);
    expect((await amend(slurry, { goodPractices: [{ type: 'TypeGoodPractice', id: '1' }] })).status).toBe(200);
    expect((await amend(manure, { dose: 24 })).status).toBe(200);

    const ids = [treatment.json[0].id as string, mineral, slurry, manure];
    const started = await gw.exportCue(f, ids);
    expect(started.status).toBe(202);
    const { job } = await gw.settled(keys, started.json.id);
    expect(job.status.name).toBe('FinalizadoCompleto');
    const result = await gw.result(keys, started.json.id);
    const n = recordNumber;
    expect(result.json).toEqual({
      data: expect.arrayContaining([
        { result: 'ok', id: n(ids[0]), urn: ids[0] },
        ...[mineral, slurry, manure].map((id) => ({ result: 'ok', id: n(id), type: 'AgriFertilize', urn: id })),
      ]),
      error: [],
    });
    expect(result.json.data).toHaveLength(4);

    const held = await siex().notebook('Fertilizacion', farm.codigoRea);
    const block = (id: string) => {
      const mine = held.filter((e) => e.idAjena === recordNumber(id));
      expect(mine).toHaveLength(1);
      return mine[0].block as any;
    };
    expect(block(mineral)).toMatchObject({
      MaterialFertilizante: { Material: 14 },
      AplicacionMaterialFertilizante: { Dosis: 250, Unidad: 17 },
    });
    expect(block(slurry)).toMatchObject({
      BuenasPracticas: [{ TipoBPF: 1 }],
      MaterialFertilizante: { Material: 3, REGA: 'ES460130000123', Densidad: 1.05 },
      AplicacionMaterialFertilizante: { Dosis: 30, Unidad: 19 },
    });
    expect(block(manure)).toMatchObject({
      MaterialFertilizante: { Material: 5, TratamientoEstiercoles: 1 },
      AplicacionMaterialFertilizante: { Dosis: 24, Unidad: 29 },
    });
    const treatments = (await siex().notebook('TratamFito', farm.codigoRea)).filter(
      (e) => e.idAjena === recordNumber(ids[0]),
    );
    expect(treatments).toHaveLength(1);

    // Each now reads as SIEX holding it.
    for (const id of [mineral, slurry, manure]) expect((await read(id)).json[0].exported).toBe('1');

    // A fertilization SIEX holds is deleted there first: 202 with the job that sends it as Borrar.
    const deleted = await call('DELETE', recordPath(manure), { keys });
    expect(deleted.status).toBe(202);
    expect((await gw.settled(keys, deleted.json.id)).job.status.name).toBe('FinalizadoCompleto');
    expect((await siex().notebook('Fertilizacion', farm.codigoRea)).map((e) => e.idAjena).sort()).toEqual(
      [n(mineral), n(slurry)].sort(),
    );
    expect((await read(manure)).status).toBe(404);
    // Its 120 kg N/ha left the vulnerable enclosure with it: 170 fits there again.
    expect((await registerFertilization(manureBody(34, { dateStart: day(1), idcp: [f.vine[0]] }))).status).toBe(201);
  });
});

/** Every block of `section` in a CUE document, wherever the document nests its sections. */
function blocksIn(doc: unknown, section: string): Record<string, unknown>[] {
  if (Array.isArray(doc)) return doc.flatMap((d) => blocksIn(d, section));
  if (!doc || typeof doc !== 'object') return [];
  return Object.entries(doc).flatMap(([k, v]) =>
    k === section && Array.isArray(v) ? (v as Record<string, unknown>[]) : blocksIn(v, section),
  );
}

describe('issue 35 item 4: a Borrar names its own crop as SIEX holds it', () => {
  it('a fertilization on vine and olive amended to the vine sends the olive block as Borrar with the olive DGC and area', async () => {
    const f = exportFarm;
    const id = createdId(await registerFertilization(mineralBody({ dateStart: day(4), idcp: [f.vine[2], f.olive] })));
    const exportedNow = async () => {
      const started = await gw.exportCue(f, [id]);
      expect(started.status).toBe(202);
      expect((await gw.settled(keys, started.json.id)).job.status.name).toBe('FinalizadoCompleto');
    };
    /** The blocks of this record's last submission (other tests share the simulator), and what SIEX holds of it. */
    const lastSent = async (ids: number[]) => {
      const mine = (await siex().submissions({ documents: true })).filter((s) =>
        s.ids.Fertilizacion?.some((n) => ids.includes(n)),
      );
      return blocksIn(mine.at(-1)!.document, 'Fertilizacion');
    };
    const heldOf = async (ids: number[]) =>
      (await siex().notebook('Fertilizacion', farm.codigoRea)).filter((e) => ids.includes(e.idAjena));

    await exportedNow();
    const heldIds = (await lastSent([recordNumber(id)])).map((b) => b.IdAjenaFerti as number);
    expect(heldIds).toHaveLength(2);
    const before = await heldOf(heldIds);
    expect(before).toHaveLength(2);

    expect((await amend(id, { idcp: [f.vine[2]] })).status).toBe(200);
    await exportedNow();
    const after = await heldOf(heldIds);
    expect(after).toHaveLength(1);
    const [kept] = after;
    const dropped = before.find((e) => e.idAjena !== kept.idAjena)!;
    const borrar = (await lastSent(heldIds)).find((b) => b.Borrar === true)!;
    expect(borrar.IdAjenaFerti).toBe(dropped.idAjena);
    // the olive's DGC and area, as SIEX held them, not the vine's that the record keeps
    expect(borrar.DGCs).toEqual((dropped.block as { DGCs: unknown }).DGCs);
    expect(borrar.DGCs).not.toEqual((kept.block as { DGCs: unknown }).DGCs);
  });
});

describe("issue 35 item 4: a fertilization names its material's commercial product (DetalleMaterial)", () => {
  it('finds the product its name gives, sends it to SIEX, and refuses a product of another material', async () => {
    const f = exportFarm;
    const named = mineralBody({ dateStart: day(3), idcp: [f.vine[1]] });
    (named.material as Record<string, unknown>).productName = 'ácido nítrico (15-00-00)';
    const registered = await registerFertilization(named);
    const id = createdId(registered);
    expect(registered.json[0].material.detail).toEqual({
      type: 'TypeFertilizerDetail',
      id: '1',
      name: 'ÁCIDO NÍTRICO (15-00-00) de GENÉRICO',
    });
    const started = await gw.exportCue(f, [id]);
    expect(started.status).toBe(202);
    expect((await gw.settled(keys, started.json.id)).job.status.name).toBe('FinalizadoCompleto');
    const sent = (await siex().submissions({ documents: true })).filter((s) =>
      s.ids.Fertilizacion?.includes(recordNumber(id)),
    );
    const [block] = blocksIn(sent.at(-1)!.document, 'Fertilizacion');
    expect((block.MaterialFertilizante as { DetalleMaterial?: number }).DetalleMaterial).toBe(1);

    // 551, "Lodo de depuradora", is sewage sludge's (MAT_FERTI 22): not a product of a mineral fertilizer (14).
    const other = mineralBody({ dateStart: day(3), idcp: [f.vine[1]] });
    (other.material as Record<string, unknown>).detail = { type: 'TypeFertilizerDetail', id: '551', name: '' };
    const refused = await registerFertilization(other);
    expect(refused.status).toBe(422);
    expect(refused.json.errors.map((e: { code: string; path: string }) => `${e.code} ${e.path}`)).toEqual([
      'DETAIL_NOT_OF_MATERIAL body.material.detail.id',
    ]);
  });
});

describe('issue 35 item 4: every Fertilizacion says whether the holding manages its inputs sustainably', () => {
  it('a farm that does not say holds its fertilizations back until the record says, then SIEX holds what it said', async () => {
    const silent: ExportFarm = {
      ...exportFarm,
      rea: silentRea,
      codigoRea: silentFarm.codigoRea,
      ...(await farmOverHttp(keys, silentRea)),
    };
    const on = (id: string) => `${PATH}${encodeURIComponent(id)}?agrifarmId=${encodeURIComponent(silent.agrifarmId)}`;
    const registered = await postJson(
      `${PATH}?agrifarmId=${encodeURIComponent(silent.agrifarmId)}`,
      mineralBody({ dateStart: day(2), idcp: [silent.vine[1]] }),
      keys,
    );
    expect(registered.status).toBe(201);
    const id = registered.json[0].id as string;
    expect(registered.json[0]).toMatchObject({
      exportable: false,
      exportBlockers: [{ code: 'MISSING_DATA', message: expect.stringContaining('GestionSostInsu') }],
    });
    // None goes: 422 and no job.
    expect((await gw.exportCue(silent, [id])).status).toBe(422);

    const amended = await call('PATCH', on(id), {
      keys,
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: JSON.stringify({ sustainableInputs: false }),
    });
    expect(amended.status).toBe(200);
    expect(amended.json[0]).toMatchObject({ sustainableInputs: false, exportable: true, exportBlockers: [] });
    const started = await gw.exportCue(silent, [id]);
    expect(started.status).toBe(202);
    expect((await gw.settled(keys, started.json.id)).job.status.name).toBe('FinalizadoCompleto');
    const held = (await siex().notebook('Fertilizacion', silentFarm.codigoRea)).map((e) => e.block as any);
    expect(held).toEqual([expect.objectContaining({ GestionSostInsu: false })]);
  });
});
