import { randomInt } from 'node:crypto';
import { DateTime } from 'luxon';
import { siexSimulatorControl } from '../../local/siex-simulator/control';
import { PhytoRequest } from '../../shared/phyto/wire';
import { ZONE } from '../../shared/domain/dates';
import { Farm } from '../../shared/farms/farm';
import { descriptorProblems, leafCount, roundTo } from '../helpers/cue-descriptor';
import { ANCHOR, enclosure, testFarm } from '../helpers/dataset';
import { gatewayCalls, recordNumber, schemaProblems, SIEX_FIELDS } from '../helpers/export-stack';
import { call, get, Keys } from '../helpers/http';
import { apiTime } from '../helpers/phyto-fixtures';
import {
  APPLICATORS,
  body,
  list,
  P,
  register,
  REGISTER_PATH,
  seedPhyto,
  testClient,
  uniqueRea,
} from '../helpers/phyto-stack';
import { checkFarmShape } from '../helpers/spec-shapes';
import { siexSimulatorUrl } from '../support/stack-env';

/**
 * Issue 23, done-when: records of every kind registered over HTTP (several crops and varieties; units %, L/ha, kg/ha,
 * cc/hL and g/hL; with and without machine, advisor, phenology, treated area and spray volume; on several crops at
 * once), exported through the shared stack, and every value the SIEX simulator received checked against the descriptor
 * table (shared/siex/cue-descriptor.ts); then what each record became in SIEX's notebook, value by value. Also the
 * issue's registration rules at their boundaries over HTTP (inspection, spray volume) and the "NP" interval.
 *
 * This file changes no simulator knob.
 */
const gw = gatewayCalls();
const sim = siexSimulatorControl(siexSimulatorUrl());

/** The ISO day `years` years before the tests' anchor, as the API writes days. */
const yearsAgo = (years: number, days = 0) => ANCHOR.setZone(ZONE).minus({ years, days }).toFormat('dd-MM-yyyy');

/** A Madrid time `days` before the anchor at h:m:s, seconds included (HoraTratamiento carries them). */
const at = (days: number, h: number, m: number, s: number) =>
  apiTime(ANCHOR.setZone(ZONE).minus({ days }).set({ hour: h, minute: m, second: s, millisecond: 0 }));

const dgc = () => String(randomInt(1, 2 ** 40));
const E = {
  /** 2.35 ha: TEMPRANILLO 1.50 ha and BOBAL 0.85 ha declared. */
  shared: enclosure(12, 45, 1, '46', '2.35'),
  /** 1.1037 ha (SIGPAC's 4 decimals): TEMPRANILLO and olive, nothing declared: an even split. */
  mixed: enclosure(12, 45, 2, '46', '1.1037'),
  pinar: enclosure(14, 7, 1, '46', '3.80'),
  bobal: enclosure(12, 46, 1, '46', '0.60'),
  olives: enclosure(15, 102, 3, '46', '4.12'),
  wheat: enclosure(3, 21, 1, '47', '12.40'),
};
type Where = 'tShared' | 'tMixed' | 'tPinar' | 'bShared' | 'bBobal' | 'oOlives' | 'oMixed' | 'wheat';
/** Each crop of an enclosure has a DGC of its own in the REA. */
const WHERE: Where[] = ['tShared', 'tMixed', 'tPinar', 'bShared', 'bBobal', 'oOlives', 'oMixed', 'wheat'];
const DGC = Object.fromEntries(WHERE.map((w) => [w, dgc()])) as Record<Where, string>;
const withDgc = (w: Where, k: keyof typeof E, cropArea?: string) => ({
  ...E[k],
  dgc: DGC[w],
  ...(cropArea ? { cropArea } : {}),
});

function descriptorFarm(rea: string): Farm {
  return {
    ...testFarm(rea),
    codigoRea: `ES47${String(randomInt(1e9)).padStart(10, '0')}`,
    crops: [
      {
        typecrop: { id: '102', name: 'VIÑA' },
        code: 1001,
        name: 'TEMPRANILLO',
        parcels: [
          { name: 'La Hoya', sigpac: [withDgc('tShared', 'shared', '1.50'), withDgc('tMixed', 'mixed')] },
          { name: 'El Pinar', sigpac: [withDgc('tPinar', 'pinar')] },
        ],
      },
      {
        typecrop: { id: '102', name: 'VIÑA' },
        code: 1002,
        name: 'BOBAL',
        parcels: [
          { name: 'La Hoya', sigpac: [withDgc('bShared', 'shared', '0.85'), withDgc('bBobal', 'bobal', '0.60')] },
        ],
      },
      {
        typecrop: { id: '101', name: 'OLIVO' },
        code: 2001,
        name: 'BLANQUETA',
        parcels: [{ name: 'Los Olivos', sigpac: [withDgc('oOlives', 'olives', '4.00'), withDgc('oMixed', 'mixed')] }],
      },
      {
        typecrop: { id: '1', name: 'TRIGO BLANDO' },
        code: 3001,
        name: 'FILON',
        parcels: [{ name: 'Páramo Alto', sigpac: [withDgc('wheat', 'wheat')] }],
      },
    ],
  };
}

interface Setup {
  keys: Keys;
  agrifarmId: string;
  codigoRea: string;
  idcp: Record<Where, string>;
  /** What the farm lookup answered. */
  lookup: any;
}
let setup: Setup;

beforeAll(async () => {
  const rea = uniqueRea();
  const farm = descriptorFarm(rea);
  const client = testClient('descriptor', [rea]);
  await seedPhyto({ farms: [farm], clients: [client] });
  const keys = { sidKey: client.sidKey, apiKey: client.apiKey };
  const res = await get(`/v1/siex/farms?rea=${rea}&year=${farm.year}`, keys);
  if (res.status !== 200) throw new Error(`farm lookup: ${res.status} ${res.text}`);
  const lookup = res.json[0];
  const idcpOf = (variety: number, e: keyof typeof E) =>
    String(
      lookup.agriCrop
        .find((c: any) => c.crop.code === variety)
        .agriParcel.flatMap((p: any) => p.sigpac)
        .find((s: any) => s.pol === E[e].pol && s.parc === E[e].parc && s.enc === E[e].enc).idcp,
    );
  setup = {
    keys,
    agrifarmId: lookup.id,
    codigoRea: farm.codigoRea!,
    lookup,
    idcp: {
      tShared: idcpOf(1001, 'shared'),
      tMixed: idcpOf(1001, 'mixed'),
      tPinar: idcpOf(1001, 'pinar'),
      bShared: idcpOf(1002, 'shared'),
      bBobal: idcpOf(1002, 'bobal'),
      oOlives: idcpOf(2001, 'olives'),
      oMixed: idcpOf(2001, 'mixed'),
      wheat: idcpOf(3001, 'wheat'),
    },
  };
}, 60_000);

const UNIT = {
  percent: { type: 'Measure', name: 'Porcentaje', symbol: '%', code: 14 },
  lHa: { type: 'Measure', name: 'Litros por hectárea', symbol: 'L/ha', code: 18 },
  kgHa: { type: 'Measure', name: 'Kilogramos por hectárea', symbol: 'kg/ha', code: 17 },
  ccHl: { type: 'Measure', name: 'cc por hectolitro', symbol: 'cc/hL', code: 64 },
  gHl: { type: 'Measure', name: 'Gramos por hectolitro', symbol: 'g/hL', code: 65 },
} as const;

const M = {
  backpack: { type: 'Machine', id: '060303013', name: 'Mochila 16 L', roma: '', inspection: '', ref: 'MOCHILA-1' },
  atomiser: {
    type: 'Machine',
    id: '060303021',
    name: 'Atomizador',
    roma: 'ROMA-46-0001',
    inspection: yearsAgo(1),
    ref: '',
  },
  newBoom: {
    type: 'Machine',
    id: '060303011',
    name: 'Barras 12 m',
    roma: '',
    inspection: '',
    registered: yearsAgo(2),
    ref: 'BARRAS-2',
  },
  lance: { type: 'Machine', id: '060303015', name: 'Lanza', roma: '', inspection: yearsAgo(2), ref: 'LANZA-1' },
} as const satisfies Record<string, NonNullable<PhytoRequest['machine']>[number]>;

/** One record to register: where, the dose in its unit, and what else it says. */
interface Case {
  where: Where[];
  dose: number;
  unit: keyof typeof UNIT;
  extra?: Partial<PhytoRequest>;
  /** The treated hectares, given as `surface` (or as `st` in m2 when `inM2`). */
  area?: number;
  inM2?: boolean;
  /** Litres of mixture per treated hectare: `soup` is this times the area. */
  litresPerHa?: number;
}

const advisor = {
  advisor: { type: 'UserMetadata', ropo: APPLICATORS.advisor.ropo },
  reviewed: '1',
  recipe: 'R-9',
} satisfies Partial<PhytoRequest>;
const stage = {
  phenology: { type: 'TypePhenology', id: '7', name: 'Desarrollo del fruto' },
} satisfies Partial<PhytoRequest>;

/**
 * 28 records on the unlimited copper (0.6-0.62 %, vine and olive: a per-hectare dose through the spray volume) and
 * TOPIK on wheat (0.17-0.2 L/ha).
 */
const CASES: Case[] = [
  { where: ['tShared'], dose: 0.61, unit: 'percent' },
  { where: ['bShared'], dose: 610, unit: 'gHl', extra: stage },
  { where: ['tShared', 'bShared'], dose: 615, unit: 'ccHl' },
  { where: ['tShared', 'bShared', 'oOlives'], dose: 0.6, unit: 'percent', extra: advisor },
  { where: ['tMixed', 'oMixed'], dose: 0.62, unit: 'percent', extra: stage },
  { where: ['tMixed'], dose: 0.61, unit: 'percent', area: 0.3333 },
  { where: ['tPinar'], dose: 6.1, unit: 'lHa', area: 2, litresPerHa: 1000 },
  { where: ['tPinar'], dose: 6.15, unit: 'kgHa', area: 3.8, litresPerHa: 1000, extra: { machine: [M.atomiser] } },
  { where: ['oOlives'], dose: 7.35, unit: 'kgHa', area: 1.2, litresPerHa: 1200, extra: { ...advisor, ...stage } },
  { where: ['oOlives', 'bBobal'], dose: 9.15, unit: 'lHa', area: 3, litresPerHa: 1500 },
  { where: ['bBobal'], dose: 0.6123, unit: 'percent', extra: { machine: [M.newBoom], manual: false } },
  { where: ['tPinar', 'bBobal', 'oOlives'], dose: 620, unit: 'gHl', area: 1.7777 },
  { where: ['tShared', 'tPinar'], dose: 600, unit: 'ccHl', area: 5000, inM2: true },
  { where: ['oMixed'], dose: 0.61, unit: 'percent', extra: { machine: [M.lance], manual: true } },
  { where: ['tShared', 'oMixed'], dose: 0.61, unit: 'percent', litresPerHa: 800, area: 1 },
  {
    where: ['bShared', 'bBobal'],
    dose: 0.62,
    unit: 'percent',
    extra: { machine: [M.atomiser, M.backpack], manual: false },
  },
  {
    where: ['wheat'],
    dose: 0.1765,
    unit: 'lHa',
    area: 6.2,
    extra: { ...stage, infection: { type: 'TypeInfection', kind: 'mala_hierba', id: '141', name: 'Avenas locas' } },
  },
  { where: ['bBobal', 'tShared'], dose: 0.6, unit: 'percent', area: 0.5, extra: stage },
  { where: ['tPinar', 'oOlives'], dose: 6.05, unit: 'kgHa', area: 7.8, litresPerHa: 1000, extra: advisor },
  { where: ['tMixed', 'bShared'], dose: 612, unit: 'gHl', extra: { ...advisor, ...stage } },
  { where: ['oOlives'], dose: 0.6, unit: 'percent', area: 0.004 },
  { where: ['tShared'], dose: 605, unit: 'ccHl', area: 0.5, litresPerHa: 3000 },
  { where: ['bBobal', 'oMixed', 'tPinar'], dose: 0.615, unit: 'percent', extra: { machine: [M.newBoom, M.lance] } },
  { where: ['tPinar'], dose: 12.2, unit: 'lHa', area: 1, litresPerHa: 2000 },
  { where: ['oOlives', 'tShared'], dose: 0.61, unit: 'percent', area: 4.5 },
  { where: ['bShared'], dose: 6.2, unit: 'kgHa', litresPerHa: 1000, area: 0.85 },
  { where: ['tMixed', 'oMixed', 'tShared'], dose: 0.6, unit: 'percent', area: 2 },
  { where: ['oOlives'], dose: 0.61, unit: 'percent', extra: { ...advisor, machine: [M.atomiser], manual: false } },
];

/** Each record's application time: unique to the second, so its blocks are found by their HoraTratamiento. */
const timeOf = (i: number) => at(1 + (i % 5), 6 + (i % 14), 7 + 2 * (i % 25), 11 + i);

function requestOf(c: Case, i: number): PhytoRequest {
  const area =
    c.area === undefined
      ? {}
      : c.inM2
        ? { st: String(c.area), mst: { type: 'Measure' as const, name: 'Metros cuadrados', symbol: 'm2', code: 1 } }
        : { surface: String(c.area) };
  const hectares = c.inM2 ? c.area! / 1e4 : c.area;
  return body({
    dateApplication: timeOf(i),
    ...(c.where[0] === 'wheat'
      ? {
          subtype: { type: 'TypePhytosanitary', name: 'TOPIK', code: P.topik },
          applicator: {
            user: { type: 'UserMetadata', nif: APPLICATORS.cualificado.nif, ropo: APPLICATORS.cualificado.ropo },
          },
        }
      : {}),
    idcp: c.where.map((w) => setup.idcp[w]),
    dose: c.dose,
    measure: UNIT[c.unit],
    ...SIEX_FIELDS,
    ...area,
    ...(c.litresPerHa ? { soup: String(roundTo(c.litresPerHa * hectares!, 2)) } : {}),
    ...c.extra,
  });
}

interface DgcBlock {
  CodigoDGC: number;
  CodigoCultivo: number;
  Superficie: number;
  EstadoFenologico?: number;
}
type Block = Record<string, any> & { DGCs: DgcBlock[] };

describe('issue 23: every value SIEX receives is in its descriptor form', () => {
  const urns: string[] = [];

  it('the farm lookup shows each crop’s declared area, only where the back office gives one', () => {
    checkFarmShape(setup.lookup);
    const areas = setup.lookup.agriCrop.flatMap((c: any) =>
      c.agriParcel.flatMap((p: any) => p.sigpac.map((s: any) => [c.crop.name, s.pol, s.enc, s.cropArea ?? null])),
    );
    expect(areas).toEqual([
      ['TEMPRANILLO', '12', '1', '1.50'],
      ['TEMPRANILLO', '12', '2', null],
      ['TEMPRANILLO', '14', '1', null],
      ['BOBAL', '12', '1', '0.85'],
      ['BOBAL', '12', '1', '0.60'],
      ['BLANQUETA', '15', '3', '4.00'],
      ['BLANQUETA', '12', '2', null],
      ['FILON', '3', '1', null],
    ]);
  });

  it(`registers ${CASES.length} varied records over HTTP`, async () => {
    expect(CASES.length).toBeGreaterThanOrEqual(25);
    const problems: string[] = [];
    for (const [i, c] of CASES.entries()) {
      const res = await register(setup.keys, setup.agrifarmId, requestOf(c, i));
      if (res.status === 201) urns.push(res.json[0].id);
      else problems.push(`case ${i}: ${res.status} ${res.text}`);
    }
    expect(problems).toEqual([]);
    // several crops and varieties, every unit, with and without each optional part
    const has = (p: (c: Case) => boolean) => CASES.filter(p).length;
    expect(new Set(CASES.map((c) => c.unit)).size).toBe(5);
    for (const p of [
      (c: Case) => !!c.extra?.machine,
      (c: Case) => !!c.extra?.advisor,
      (c: Case) => !!c.extra?.phenology,
      (c: Case) => c.area !== undefined,
      (c: Case) => c.litresPerHa !== undefined,
      (c: Case) => c.where.length > 1,
    ]) {
      expect(has(p)).toBeGreaterThan(2);
      expect(has((c) => !p(c))).toBeGreaterThan(2);
    }
  }, 120_000);

  it('exports them all, FinalizadoCompleto', async () => {
    const res = await gw.exportCue({ keys: setup.keys, agrifarmId: setup.agrifarmId } as never, urns);
    expect(res.status).toBe(202);
    const { job } = await gw.settled(setup.keys, res.json.id, { timeoutMs: 60_000 });
    expect([job.status.name, job.percentage]).toEqual(['FinalizadoCompleto', 100]);
  }, 90_000);

  it('every value of every document SIEX received for the farm matches the descriptor table (and the schema)', async () => {
    const mine = (await sim.submissions()).filter((s: any) => s.document?.CUADERNO?.[0]?.CodigoRea === setup.codigoRea);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.flatMap((s: any) => descriptorProblems(s.document))).toEqual([]);
    // not vacuous: every record's blocks were walked, value by value
    expect(mine.reduce((n: number, s: any) => n + leafCount(s.document), 0)).toBeGreaterThan(CASES.length * 20);
    expect(schemaProblems(mine)).toEqual([]);
  });

  it('each record in SIEX’s notebook: its time to the second, its dose to 3 decimals, its areas, equipment as it was', async () => {
    const notebook: Block[] = (await sim.notebook('TratamFito', setup.codigoRea)).map((n: any) => n.block);
    const declared: Record<Where, number | undefined> = {
      tShared: 1.5,
      bShared: 0.85,
      bBobal: 0.6,
      oOlives: 4,
      tMixed: undefined,
      oMixed: undefined,
      tPinar: undefined,
      wheat: undefined,
    };
    const enclosureOf: Record<Where, keyof typeof E> = {
      tShared: 'shared',
      bShared: 'shared',
      tMixed: 'mixed',
      oMixed: 'mixed',
      tPinar: 'pinar',
      bBobal: 'bobal',
      oOlives: 'olives',
      wheat: 'wheat',
    };
    const problems: string[] = [];
    for (const [i, c] of CASES.entries()) {
      const [day, time] = timeOf(i).split(' ');
      const blocks = notebook.filter((b) => b.HoraTratamiento === time && b.FechaInicio === day.replace(/-/g, '/'));
      const say = (what: string, got: unknown, want: unknown) =>
        JSON.stringify(got) === JSON.stringify(want)
          ? []
          : [`case ${i} ${what}: ${JSON.stringify(got)} ≠ ${JSON.stringify(want)}`];
      const varieties = new Set(c.where.map((w) => (w[0] === 'b' ? 'BOBAL' : w[0])));
      problems.push(...say('blocks', blocks.length, varieties.size));
      const dgcs = blocks.flatMap((b) => b.DGCs);
      problems.push(...say('DGCs', dgcs.map((d) => String(d.CodigoDGC)).sort(), c.where.map((w) => DGC[w]).sort()));
      for (const b of blocks) {
        problems.push(
          ...say(
            'dose',
            b.ProductosFito.map((p: any) => [p.Dosis, p.Unidad]),
            [[roundTo(c.dose, 3), UNIT[c.unit].code]],
          ),
        );
        const machines = c.extra?.machine ?? SIEX_FIELDS.machine;
        const manual = c.extra?.manual ?? SIEX_FIELDS.manual;
        problems.push(
          ...say(
            'equipment',
            b.IdentificadorAplicador.map((a: any) => [
              a.EquipoAplicador.TipoMaquinariaUNE,
              a.EquipoAplicador.AplicacionManual,
            ]),
            machines.map((m) => [m.id, manual || ['060303013', '060303044', '0630311_88'].includes(m.id)]),
          ),
        );
        problems.push(...say('advisor', 'AsesorValidacion' in b, !!c.extra?.advisor));
        problems.push(
          ...say(
            'stage',
            b.DGCs.map((d) => d.EstadoFenologico ?? null),
            b.DGCs.map(() => (c.extra?.phenology ? 7 : null)),
          ),
        );
      }
      const byDgc = new Map(dgcs.map((d) => [String(d.CodigoDGC), d.Superficie]));
      const shares = c.where.map((w) => byDgc.get(DGC[w]) ?? NaN);
      const hectares = c.area === undefined ? undefined : c.inM2 ? c.area / 1e4 : c.area;
      for (const [k, w] of c.where.entries()) {
        const most = declared[w] ?? Number(E[enclosureOf[w]].dimension);
        if (!(shares[k] <= most + 1e-9)) problems.push(`case ${i} ${w}: ${shares[k]} ha is above its ${most} ha`);
        // without a treated area, a declared crop sends its declared area
        if (hectares === undefined && declared[w] !== undefined)
          problems.push(...say(`${w} area`, shares[k], declared[w]));
      }
      if (hectares !== undefined) {
        const sum = shares.reduce((n, v) => n + v, 0);
        const bumped = shares.filter((v) => v === 0.01).length * 0.01;
        if (Math.abs(sum - hectares) > 0.01 + bumped + 1e-9)
          problems.push(`case ${i}: shares ${shares.join(' + ')} are not ${hectares} ha within 0.01`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('issue 23 item 2: each crop and variety keeps its IdAjena through amendments and reorders', () => {
  /** Where each DGC is: its crop and variety (t TEMPRANILLO, b BOBAL, o BLANQUETA olive, w wheat). */
  const varietyOf = new Map(WHERE.map((w) => [DGC[w], w[0]]));
  const time = timeOf(40);
  let urn = '';
  let first = new Map<number, string>();

  /** The record's blocks in SIEX's notebook: IdAjena → the crop and variety of its DGCs (one each, or it fails). */
  async function heldByIdAjena(): Promise<Map<number, string>> {
    const [day, hour] = time.split(' ');
    const mine = (await sim.notebook('TratamFito', setup.codigoRea)).filter(
      (n: any) => n.block.HoraTratamiento === hour && n.block.FechaInicio === day.replace(/-/g, '/'),
    );
    return new Map(
      mine.map((n: any) => {
        const varieties = new Set(n.block.DGCs.map((d: any) => varietyOf.get(String(d.CodigoDGC))));
        expect(varieties.size).toBe(1);
        return [n.idAjena as number, [...varieties][0] as string];
      }),
    );
  }

  async function exportIt(): Promise<void> {
    const res = await gw.exportCue({ keys: setup.keys, agrifarmId: setup.agrifarmId } as never, [urn]);
    expect(res.status).toBe(202);
    const { job } = await gw.settled(setup.keys, res.json.id, { timeoutMs: 60_000 });
    expect(job.status.name).toBe('FinalizadoCompleto');
  }

  async function amendIdcp(where: Where[]): Promise<void> {
    const res = await call(
      'PATCH',
      `${REGISTER_PATH}${encodeURIComponent(urn)}?agrifarmId=${encodeURIComponent(setup.agrifarmId)}`,
      {
        keys: setup.keys,
        headers: { 'Content-Type': 'application/merge-patch+json' },
        body: JSON.stringify({ idcp: where.map((w) => setup.idcp[w]) }),
      },
    );
    expect(res.status).toBe(200);
  }

  it('a record on three crops and varieties is three blocks, each with an id of at most 10 digits', async () => {
    const res = await register(
      setup.keys,
      setup.agrifarmId,
      requestOf({ where: ['tPinar', 'bBobal', 'oOlives'], dose: 0.61, unit: 'percent' }, 40),
    );
    expect(res.status).toBe(201);
    urn = res.json[0].id;
    await exportIt();
    first = await heldByIdAjena();
    expect([...first.values()].sort()).toEqual(['b', 'o', 't']);
    for (const id of first.keys()) expect(id >= 1 && id <= 9_999_999_999).toBe(true);
    expect(first.get(recordNumber(urn))).toBe('t');
  }, 90_000);

  it('reordered, each IdAjena still holds the same crop and variety', async () => {
    await amendIdcp(['oOlives', 'tPinar', 'bBobal']);
    await exportIt();
    expect(await heldByIdAjena()).toEqual(first);
  }, 90_000);

  it('a crop taken away is deleted under its own id, the others keep theirs, and one brought back gets a new id', async () => {
    const oliveId = [...first].find(([, v]) => v === 'o')![0];
    // the olive dropped; TEMPRANILLO now on another enclosure, named last
    await amendIdcp(['bBobal', 'tShared']);
    await exportIt();
    const without = await heldByIdAjena();
    expect(without).toEqual(new Map([...first].filter(([, v]) => v !== 'o')));
    await amendIdcp(['oOlives', 'bBobal', 'tShared']);
    await exportIt();
    const back = await heldByIdAjena();
    const newOlive = [...back].find(([, v]) => v === 'o')![0];
    expect(newOlive).not.toBe(oliveId);
    expect(newOlive).toBeLessThanOrEqual(9_999_999_999);
    expect(new Map([...back].filter(([, v]) => v !== 'o'))).toEqual(without);
  }, 180_000);

  it('every document sent for it matches the descriptor, IdAjena included', async () => {
    const mine = (await sim.submissions()).filter((s: any) => s.document?.CUADERNO?.[0]?.CodigoRea === setup.codigoRea);
    expect(mine.flatMap((s: any) => descriptorProblems(s.document))).toEqual([]);
  });
});

describe('issue 23: registration rules at their boundaries, over HTTP', () => {
  const send = (extra: Partial<PhytoRequest>, idcp: Where[] = ['tPinar']) =>
    register(
      setup.keys,
      setup.agrifarmId,
      body({ dateApplication: at(1, 9, 0, 0), idcp: idcp.map((w) => setup.idcp[w]), ...extra }),
    );
  const applied = () => ANCHOR.setZone(ZONE).minus({ days: 1 });
  const day = (d: DateTime) => d.toFormat('dd-MM-yyyy');

  it('an inspection exactly 3 years before the application passes; a day earlier is 422 naming the machine and day', async () => {
    const ok = await send({ machine: [{ ...M.atomiser, inspection: day(applied().minus({ years: 3 })) }] });
    expect(ok.status).toBe(201);
    const old = day(applied().minus({ years: 3, days: 1 }));
    const res = await send({ machine: [{ ...M.atomiser, inspection: old }] });
    expect(res.status).toBe(422);
    expect(res.json.errors).toEqual([
      {
        code: 'EQUIPMENT_INSPECTION_EXPIRED',
        path: 'body.machine[0].inspection',
        message: expect.stringContaining(`060303021 Atomizador (ROMA ROMA-46-0001): last inspected on ${old}`),
      },
    ]);
  });

  it('an inspection after the application is 422; a machine never inspected passes registered under 5 years, not at 5', async () => {
    const after = await send({ machine: [{ ...M.atomiser, inspection: day(applied().plus({ days: 1 })) }] });
    expect([after.status, after.json.errors?.[0]?.code]).toEqual([422, 'EQUIPMENT_INSPECTION_EXPIRED']);
    const young = await send({
      machine: [{ ...M.newBoom, registered: day(applied().minus({ years: 5 }).plus({ days: 1 })) }],
    });
    expect(young.status).toBe(201);
    expect(young.json[0].machine[0].registered).toBe(day(applied().minus({ years: 5 }).plus({ days: 1 })));
    const five = await send({ machine: [{ ...M.newBoom, registered: day(applied().minus({ years: 5 })) }] });
    expect([five.status, five.json.errors?.[0]?.path]).toEqual([422, 'body.machine[0].inspection']);
    // a backpack is outside the inspections
    const backpack = await send({ machine: [{ ...M.backpack, inspection: '01-01-2012' }] });
    expect(backpack.status).toBe(201);
  });

  it('a spray volume of exactly 5,000 L/ha passes; above it is 422 with the figure', async () => {
    expect((await send({ soup: '10000', surface: '2' })).status).toBe(201);
    const res = await send({ soup: '40000', surface: '2' });
    expect(res.status).toBe(422);
    expect(res.json.errors).toEqual([
      {
        code: 'SPRAY_VOLUME_ABOVE_MAX',
        path: 'body.soup',
        message: '40000 L of mixture is 20000 L/ha, above the 5,000 L/ha ceiling',
      },
    ]);
  });

  it('a product whose register says NO PROCEDE is stored and listed with seclimit "NP", not "0"', async () => {
    const res = await send({
      subtype: { type: 'TypePhytosanitary', name: 'MICROTHIOL', code: P.microthiol },
      dose: 0.5,
      dateApplication: at(2, 7, 1, 2),
    });
    expect([res.status, res.json[0]?.seclimit]).toEqual([201, 'NP']);
    const listed = await list(setup.keys, setup.agrifarmId);
    expect(listed.json.find((r: { id: string }) => r.id === res.json[0].id).seclimit).toBe('NP');
    expect(recordNumber(res.json[0].id)).toBeGreaterThan(0);
  });
});
