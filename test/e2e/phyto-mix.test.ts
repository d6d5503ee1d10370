import { MAX_IDCP_PER_RECORD } from '../../shared/api/record-fields';
import { MixItem, PhytoRequest } from '../../shared/phyto/wire';
import { siexSimulatorControl } from '../../local/siex-simulator/control';
import { ExportFarm, exportFarm, gatewayCalls, recordNumber, SIEX_FIELDS } from '../helpers/export-stack';
import { call, Reply } from '../helpers/http';
import { body, daysAgo, list, P, register, REGISTER_PATH } from '../helpers/phyto-stack';

/**
 * Issue 24 over HTTP: tank mixes registered, listed, exported and read back from the SIEX simulator's notebook; a
 * product of a mix that breaks its label named by its path with nothing stored; counts and intervals that meet across
 * main and mixed products both ways; an amended mix re-exported under the same IdAjena; each product against its own
 * pest; and the bound on products × locations at its edge.
 */
const gw = gatewayCalls();
const siex = () => siexSimulatorControl(process.env.SIEX_SIMULATOR_URL!);

const MILDEW = { type: 'TypeInfection', kind: 'enfermedad', id: '148', name: 'Oídio de la vid' } as const;
const MITE = { type: 'TypeInfection', kind: 'plaga', id: '18', name: 'Araña amarilla' } as const;
const PERCENT = { type: 'Measure', name: 'Porcentaje', symbol: '%', code: 14 } as const;
const KG_HA = { type: 'Measure', name: 'Kilogramos por hectárea', symbol: 'kg/ha', code: 17 } as const;

const product = (code: string, name = code) => ({ type: 'TypePhytosanitary' as const, name, code });
/** FAMOLINS-like sulphur against mildew: 20-30 kg/ha, 10 days apart. */
const famolins = (o: Partial<MixItem> = {}): MixItem => ({
  subtype: product(P.famolins),
  dose: 25,
  measure: KG_HA,
  infection: MILDEW,
  ...o,
});
/** The acaricide against the yellow mite: 0.05-0.1 %. */
const acaricide = (o: Partial<MixItem> = {}): MixItem => ({
  subtype: product(P.acaricide),
  dose: 0.08,
  measure: PERCENT,
  infection: MITE,
  ...o,
});

/** The copper product against olive leaf spot (the record's infection, SIEX_FIELDS) with a mix, on vine idcps. */
const mixBody = (idcp: string[], mix: MixItem[], o: Partial<PhytoRequest> = {}): PhytoRequest =>
  body({ idcp, mix, ...SIEX_FIELDS, ...o });

const errorsOf = (res: Reply): [string, string][] =>
  res.json.errors.map((e: { code: string; path: string }) => [e.code, e.path]);

function recordPath(farm: ExportFarm, id: string): string {
  return `${REGISTER_PATH}${encodeURIComponent(id)}?agrifarmId=${encodeURIComponent(farm.agrifarmId)}`;
}

function patch(farm: ExportFarm, id: string, changes: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  return call('PATCH', recordPath(farm, id), {
    keys: farm.keys,
    headers: { 'Content-Type': 'application/merge-patch+json', ...headers },
    body: JSON.stringify(changes),
  });
}

async function registered(farm: ExportFarm, b: PhytoRequest, headers: Record<string, string> = {}): Promise<any> {
  const res = await register(farm.keys, farm.agrifarmId, b, headers);
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
  return res.json[0];
}

/** Exports the records and waits for the job; answers its result. */
async function exported(farm: ExportFarm, ids: string[]): Promise<unknown> {
  const started = await gw.exportCue(farm, ids);
  expect(started.status).toBe(202);
  const jobId = started.json.id as number;
  await gw.settled(farm.keys, jobId);
  return (await gw.result(farm.keys, jobId)).json;
}

/** What SIEX holds of a record: its blocks' treatments, first block first. */
async function held(id: string): Promise<any[]> {
  return (await siex().notebook('TratamFito'))
    .filter((e) => e.idAjena % 10_000_000_000 === recordNumber(id))
    .map((e) => e.block);
}

async function listedIds(farm: ExportFarm): Promise<string[]> {
  return (await list(farm.keys, farm.agrifarmId)).json.map((r: { id: string }) => r.id);
}

describe('mixes registered, listed, exported and held by SIEX', () => {
  let farm: ExportFarm;
  beforeAll(async () => {
    farm = await exportFarm('mix-export');
  }, 60_000);

  it('a two-product and a three-product mix: each product one ProductosFito line, each problem once', async () => {
    const two = await registered(farm, mixBody([farm.vine[0]], [famolins()]));
    expect(two.mix).toEqual([
      expect.objectContaining({
        subtype: expect.objectContaining({ subtype: expect.objectContaining({ code: P.famolins }) }),
        dose: '25',
        measure: KG_HA,
        infection: MILDEW,
        seclimit: '1',
      }),
    ]);
    // The copper's label states no safety period here, FAMOLINS's 1 day: the record's is that one.
    expect(two.seclimit).toBe('1');
    const three = await registered(
      farm,
      mixBody([farm.vine[1], farm.vine[2]], [famolins({ batch: 'L-25' }), acaricide()]),
    );
    expect(three.mix.map((m: any) => [m.subtype.subtype.code, m.subtype.prod.name, m.batch, m.seclimit])).toEqual([
      [P.famolins, 'Fungicida', 'L-25', '1'],
      [P.acaricide, 'Acaricida', '', '21'],
    ]);
    // FAMOLINS's 1 day and the acaricide's 21: the pass is safe after the longer.
    expect(three.seclimit).toBe('21');

    const listed = (await list(farm.keys, farm.agrifarmId)).json as any[];
    expect(listed.find((r) => r.id === two.id).mix).toEqual(two.mix);
    expect(listed.find((r) => r.id === three.id).mix).toEqual(three.mix);

    const ok = (id: string) => ({ result: 'ok', id: recordNumber(id), urn: id });
    const result: any = await exported(farm, [two.id, three.id]);
    expect(result.data).toEqual(expect.arrayContaining([ok(two.id), ok(three.id)]));
    expect(result.error).toEqual([]);

    const [twoBlock] = await held(two.id);
    expect(twoBlock.ProductosFito).toEqual([
      { TipoProducto: 1, NumRegistro: '91616', Dosis: 0.61, Unidad: 14 },
      { TipoProducto: 1, NumRegistro: '91534', Dosis: 25, Unidad: 17 },
    ]);
    expect(twoBlock.ProblematicaFito).toEqual({ Enfermedades: { TipoEnfermedad: [532, 148] } });
    const threeBlocks = await held(three.id);
    // Two vine enclosures of one variety: one treatment.
    expect(threeBlocks).toHaveLength(1);
    expect(threeBlocks[0].ProductosFito.map((l: any) => [l.NumRegistro, l.Dosis, l.Unidad])).toEqual([
      ['91616', 0.61, 14],
      ['91534', 25, 17],
      ['91620', 0.08, 14],
    ]);
    expect(threeBlocks[0].ProblematicaFito).toEqual({
      Enfermedades: { TipoEnfermedad: [532, 148] },
      ArtropodosGasteropodos: { TipoPlaga: [18] },
    });
    expect(threeBlocks[0].DGCs).toHaveLength(2);
  });

  it("amending a mix's second dose re-exports its block under the same IdAjena", async () => {
    const record = await registered(farm, mixBody([farm.vine[3]], [famolins(), acaricide()]));
    await exported(farm, [record.id]);
    expect((await held(record.id))[0].ProductosFito[2].Dosis).toBe(0.08);
    // A merge patch replaces `mix` whole.
    const amended = await patch(farm, record.id, { mix: [famolins(), acaricide({ dose: 0.09 })] });
    expect([amended.status, amended.json[0].exported, amended.json[0].mix[1].dose]).toEqual([200, '0', '0.09']);
    expect(await exported(farm, [record.id])).toEqual({
      data: [{ result: 'ok', id: recordNumber(record.id), urn: record.id }],
      error: [],
    });
    const blocks = (await siex().notebook('TratamFito')).filter((e) => e.idAjena === recordNumber(record.id));
    expect(blocks).toHaveLength(1);
    expect((blocks[0].block as any).ProductosFito.map((l: any) => l.Dosis)).toEqual([0.61, 25, 0.09]);
    const versions = (
      await call(
        'GET',
        `${REGISTER_PATH}${encodeURIComponent(record.id)}/history?agrifarmId=${encodeURIComponent(farm.agrifarmId)}`,
        {
          keys: farm.keys,
        },
      )
    ).json as { kind: string; changes: { field: string }[] }[];
    expect(versions.map((v) => v.kind)).toEqual(['created', 'exported', 'amended', 're-exported']);
    expect(versions[2].changes.map((c) => c.field)).toEqual(['mix']);
  });
});

describe('every product against its own label', () => {
  let farm: ExportFarm;
  beforeAll(async () => {
    farm = await exportFarm('mix-rules', 8);
  }, 60_000);

  it('a mix where one product breaks its label is 422 naming its path, and nothing is stored', async () => {
    const before = await listedIds(farm);
    const res = await register(
      farm.keys,
      farm.agrifarmId,
      mixBody([farm.vine[0]], [famolins(), acaricide({ dose: 0.5 })]),
    );
    expect(res.status).toBe(422);
    expect(errorsOf(res)).toEqual([['DOSE_ABOVE_MAX', 'body.mix[1].dose']]);
    expect(await listedIds(farm)).toEqual(before);
    // Nothing was counted either: the same mix at a lawful dose passes on that enclosure.
    await registered(farm, mixBody([farm.vine[0]], [famolins(), acaricide()]));
  });

  it('a fungicide against a disease and an acaricide against a mite, each against its own pest', async () => {
    // Without its own pest, the acaricide is judged against the record's disease, for which it has no use.
    const res = await register(
      farm.keys,
      farm.agrifarmId,
      mixBody([farm.vine[1]], [acaricide({ infection: undefined })], {
        subtype: product(P.famolins),
        dose: 25,
        measure: KG_HA,
        infection: MILDEW,
      }),
    );
    expect([res.status, errorsOf(res)]).toEqual([422, [['PEST_NOT_AUTHORIZED', 'body.mix[0].infection']]]);
    const record = await registered(
      farm,
      mixBody([farm.vine[1]], [acaricide()], {
        subtype: product(P.famolins),
        dose: 25,
        measure: KG_HA,
        infection: MILDEW,
      }),
    );
    expect(record.infection).toEqual(MILDEW);
    expect(record.mix[0].infection).toEqual(MITE);
    await exported(farm, [record.id]);
    const [block] = await held(record.id);
    expect(block.ProblematicaFito).toEqual({
      Enfermedades: { TipoEnfermedad: [148] },
      ArtropodosGasteropodos: { TipoPlaga: [18] },
    });
    expect(block.ProductosFito.map((l: any) => l.NumRegistro)).toEqual(['91534', '91620']);
  });

  it('a mixed product meets its applications as the main product, and the reverse (interval)', async () => {
    // FAMOLINS: 10 days apart.
    const alone = body({ idcp: [farm.vine[2]], subtype: product(P.famolins), dose: 25, measure: KG_HA });
    await registered(farm, { ...alone, dateApplication: daysAgo(5) });
    const mixed = await register(farm.keys, farm.agrifarmId, mixBody([farm.vine[2]], [famolins()]));
    expect([mixed.status, errorsOf(mixed)]).toEqual([422, [['MIN_INTERVAL', 'body.mix[0].subtype.code']]]);

    await registered(farm, mixBody([farm.vine[3]], [famolins()], { dateApplication: daysAgo(5) }));
    const main = await register(farm.keys, farm.agrifarmId, { ...alone, idcp: [farm.vine[3]] });
    expect([main.status, errorsOf(main)]).toEqual([422, [['MIN_INTERVAL', 'body.idcp[0]']]]);
  });

  it('a mixed product meets its applications as the main product, and the reverse (count); deletion frees it', async () => {
    // P.twice: at most 2 per campaign, no interval.
    const twice = (days: number) =>
      body({ idcp: [farm.vine[4]], subtype: product(P.twice), dose: 0.61, dateApplication: daysAgo(days) });
    const inMix = (days: number) =>
      mixBody([farm.vine[4]], [{ subtype: product(P.twice), dose: 0.61, measure: PERCENT }], {
        subtype: product(P.unlimited),
        dateApplication: daysAgo(days),
      });
    await registered(farm, twice(4));
    const mix = await registered(farm, inMix(3));
    const third = await register(farm.keys, farm.agrifarmId, twice(2));
    expect([third.status, errorsOf(third)]).toEqual([422, [['MAX_APPLICATIONS', 'body.idcp[0]']]]);
    const thirdMixed = await register(farm.keys, farm.agrifarmId, inMix(2));
    expect([thirdMixed.status, errorsOf(thirdMixed)]).toEqual([
      422,
      [['MAX_APPLICATIONS', 'body.mix[0].subtype.code']],
    ]);
    // Deleting the mix takes its application of P.twice off the enclosure's history.
    expect((await call('DELETE', recordPath(farm, mix.id), { keys: farm.keys })).status).toBe(204);
    await registered(farm, twice(2));
  });

  it('the same product twice in a record is 400', async () => {
    const res = await register(
      farm.keys,
      farm.agrifarmId,
      mixBody([farm.vine[5]], [famolins(), { subtype: product(P.unlimited), dose: 0.6, measure: PERCENT }]),
    );
    expect([res.status, errorsOf(res)]).toEqual([400, [['PRODUCT_REPEATED', 'body.mix[1].subtype.code']]]);
  });
});

describe(`products × locations at most ${MAX_IDCP_PER_RECORD}`, () => {
  const locations = Math.floor(MAX_IDCP_PER_RECORD / 2);
  let farm: ExportFarm;
  beforeAll(async () => {
    farm = await exportFarm('mix-edge', locations + 1);
  }, 60_000);

  it(`a two-product mix on ${locations} locations, amended in both products under an Idempotency-Key: one transaction`, async () => {
    const idcp = farm.vine.slice(0, locations);
    const record = await registered(farm, body({ idcp, mix: [famolins({ infection: undefined })] }));
    // Both products replaced: the old and the new history rows of every enclosure, 2 × 2 × 23 + 6 = 98 operations.
    const changes = {
      subtype: product(P.microthiol),
      dose: 0.5,
      mix: [acaricide({ infection: undefined })],
    };
    const key = { 'Idempotency-Key': `mix-edge-${record.id}` };
    const amended = await patch(farm, record.id, changes, key);
    expect(amended.status).toBe(200);
    expect([amended.json[0].subtype.subtype.code, amended.json[0].mix[0].subtype.subtype.code]).toEqual([
      P.microthiol,
      P.acaricide,
    ]);
    const replayed = await patch(farm, record.id, changes, key);
    expect([replayed.status, replayed.text]).toEqual([200, amended.text]);
    // The old products left every enclosure: FAMOLINS may be applied there again at once.
    await registered(farm, body({ idcp: [farm.vine[0]], subtype: product(P.famolins), dose: 25, measure: KG_HA }));
  });

  it('one location more is 400 MIX_TOO_LARGE, on registration and on amendment', async () => {
    const idcp = farm.vine.slice(0, locations + 1);
    const res = await register(farm.keys, farm.agrifarmId, body({ idcp, mix: [acaricide({ infection: undefined })] }));
    expect([res.status, errorsOf(res)]).toEqual([400, [['MIX_TOO_LARGE', 'body.mix']]]);
    const alone = await registered(farm, body({ idcp, dateApplication: daysAgo(2) }));
    const amended = await patch(farm, alone.id, { mix: [acaricide({ infection: undefined })] });
    expect([amended.status, errorsOf(amended)]).toEqual([400, [['MIX_TOO_LARGE', 'body.mix']]]);
  });
});
