import { PhytoRecord } from '../../shared/phyto/wire-record';
import { FarmIndex, FarmIndexDoc, IdcpEntry } from '../../shared/farms/farm-index';
import { buildRecord } from '../../shared/phyto/record-view';
import { treatmentFromWire } from '../../shared/phyto/wire-mapper';
import { mapRecord, TratamFito, treatmentCue } from '../../shared/phyto/cue-block';
import { registerNumberText } from '../../shared/plant-protection/part-cue';
import { blockKeysOf, cueDocument } from '../../shared/siex/cue-mapping';
import { blocksToSend, recordBlocks } from '../../shared/records/cue-blocks';
import { allocateBlockIds, legacyBlockIds } from '../../shared/records/block-ids';
import { descriptorProblems } from '../helpers/cue-descriptor';
import { cueValidator } from '../helpers/cue-schema';
import { farmMeta, madrid, microthiol } from '../helpers/phyto-fixtures';

const enclosure = (pol: string, parc: string, enc: string) => ({
  prov: '46',
  town: '213',
  aggr: '0',
  zone: '0',
  pol,
  parc,
  enc,
});

/**
 * Vine TEMPRANILLO on idcp 1 (2.35 ha), olive on 4 (4.12 ha), vine BOBAL on 5 (1.10 ha), and on idcp 6 olive on the
 * same 2.35 ha enclosure as idcp 1 (two crops of one enclosure).
 */
function farm(overrides: Partial<FarmIndexDoc['meta']> = {}, dgc: string | null = '4600000007'): FarmIndex {
  const idcps: IdcpEntry[] = [
    {
      idcp: 1,
      crop: 0,
      parcelId: 1,
      parcelName: 'La Hoya',
      ...enclosure('12', '45', '1'),
      dimension: '2.35',
      ...(dgc ? { dgc } : {}),
    },
    {
      idcp: 4,
      crop: 1,
      parcelId: 3,
      parcelName: 'Los Olivos',
      ...enclosure('15', '102', '3'),
      dimension: '4.12',
      dgc: '4600000028',
    },
    {
      idcp: 5,
      crop: 2,
      parcelId: 1,
      parcelName: 'La Hoya',
      ...enclosure('12', '45', '2'),
      dimension: '1.10',
      dgc: '4600000014',
    },
    {
      idcp: 6,
      crop: 1,
      parcelId: 1,
      parcelName: 'La Hoya',
      ...enclosure('12', '45', '1'),
      dimension: '2.35',
      dgc: '4600000091',
    },
  ];
  return new FarmIndex({
    meta: farmMeta(overrides),
    crops: [
      { cropId: 1, typecropId: '102', typecropName: 'VIÑA', code: 1001, name: 'TEMPRANILLO' },
      { cropId: 2, typecropId: '101', typecropName: 'OLIVO', code: 2001, name: 'BLANQUETA' },
      { cropId: 3, typecropId: '102', typecropName: 'VIÑA', code: 1002, name: 'BOBAL' },
    ],
    idcps,
  });
}

/** A backpack sprayer (TIPO_MAQUINA_UNE 060303013): equipment applied by hand, with the ERP's reference for it. */
const BACKPACK = {
  type: 'Machine' as const,
  id: '060303013',
  name: 'Mochila 16 L',
  roma: '',
  inspection: '',
  ref: 'MOCHILA-1',
};

function record(f: FarmIndex, extra: Record<string, unknown> = {}, idcp = ['1', '4']): PhytoRecord {
  const product = microthiol();
  const at = madrid('20-06-2026 08:30:00');
  return buildRecord(
    123,
    treatmentFromWire({
      type: 'AgriPhytosanitary',
      dateApplication: '20-06-2026 08:30:00',
      subtype: { type: 'TypePhytosanitary', name: 'MICROTHIOL', code: 'ES-11179' },
      dose: 0.5,
      measure: { type: 'Measure', name: '%', symbol: '%', code: 14 },
      idcp,
      applicator: { user: { type: 'UserMetadata', nif: '12345678Z', ropo: 'ES-46000123' } },
      infection: { type: 'TypeInfection', kind: 'enfermedad', id: '148', name: 'Oídio' },
      tj: [
        { type: 'TypeJustification', id: '1', name: '' },
        { type: 'TypeJustification', id: '2', name: '' },
      ],
      efficacy: { type: 'TypeEfficacy', id: '1', name: 'Buena', detail: '' },
      manual: true,
      machine: [BACKPACK],
      ...extra,
    }),
    product,
    { entries: idcp.map((i) => f.byIdcp.get(Number(i))!), uses: product.uses },
    f,
    false,
    at,
  );
}

function blocksOf(r: PhytoRecord, f: FarmIndex, id = 123): TratamFito[] {
  const mapped = mapRecord(r, id, f);
  if (!mapped.ok) throw new Error(mapped.missing.join('; '));
  return mapped.blocks;
}

function expectValid(f: FarmIndex, blocks: unknown[]): void {
  const validate = cueValidator();
  expect(validate(cueDocument(f, { TratamFito: blocks })) ? [] : validate.errors).toEqual([]);
}

const superficies = (blocks: TratamFito[]) =>
  blocks.flatMap((b) =>
    (b.DGCs as { CodigoDGC: number; Superficie: number }[]).map((d) => [d.CodigoDGC, d.Superficie]),
  );

const equipment = (b: TratamFito) =>
  (b.IdentificadorAplicador as { EquipoAplicador: Record<string, unknown> }[]).map((i) => i.EquipoAplicador);

describe('CUE mapping (schema 3.11.4)', () => {
  it('maps a record on two crops to one TratamFito per crop and variety, each with its DGCs, valid against the official schema', () => {
    const f = farm();
    const blocks = blocksOf(record(f), f);
    expect(blocks).toHaveLength(2);
    const common = {
      FechaInicio: '20/06/2026',
      FechaFin: '20/06/2026',
      HoraTratamiento: '08:30:00',
      ProblematicaFito: { Enfermedades: { TipoEnfermedad: [148] } },
      Justificaciones: [{ JustAct: 1 }, { JustAct: 2 }],
      ProductosFito: [{ TipoProducto: 1, NumRegistro: '11179', Dosis: 0.5, Unidad: 14 }],
      IdentificadorAplicador: [
        {
          AplicadorEmpresa: { NumROPO: 'ES-46000123' },
          EquipoAplicador: { AplicacionManual: true, IdEquipoAplicador: 'MOCHILA-1', TipoMaquinariaUNE: '060303013' },
        },
      ],
      Eficacia: 1,
    };
    expect(blocks[0]).toEqual({
      IdAjenaTratamFito: 123,
      ...common,
      DGCs: [{ CodigoDGC: 4600000007, CodigoCultivo: 102, Superficie: 2.35 }],
    });
    expect(blocks[1]).toEqual({
      IdAjenaTratamFito: 10_000_000_123,
      ...common,
      DGCs: [{ CodigoDGC: 4600000028, CodigoCultivo: 101, Superficie: 4.12 }],
    });
    const doc = cueDocument(f, { TratamFito: blocks });
    expectValid(f, blocks);
    expect(doc.CUADERNO[0]).toMatchObject({ CAExplotacion: '10', CodigoRea: 'ES460000000001', IdTitular: '71234567W' });
  });

  it('finding 9: splits two varieties of one crop too, since FEGA wants crop and variety shared within a block', () => {
    const f = farm();
    const blocks = blocksOf(record(f, {}, ['1', '5']), f);
    expect(
      blocks.map((b) => [b.IdAjenaTratamFito, (b.DGCs as { CodigoDGC: number }[]).map((d) => d.CodigoDGC)]),
    ).toEqual([
      [123, [4600000007]],
      [10_000_000_123, [4600000014]],
    ]);
    expectValid(f, blocks);
  });

  it('keeps the record id as the IdAjena of a record on one crop, and derives stable, distinct ids for further blocks', () => {
    const f = farm();
    expect(blocksOf(record(f, {}, ['1']), f).map((b) => b.IdAjenaTratamFito)).toEqual([123]);
    // the same record maps to the same ids every time; blocks follow the order the record names its crops
    const again = blocksOf(record(f, {}, ['4', '1', '5']), f);
    expect(again.map((b) => b.IdAjenaTratamFito)).toEqual([123, 10_000_000_123, 20_000_000_123]);
    expect(blocksOf(record(f, {}, ['4', '1', '5']), f)).toEqual(again);
    expect((again[0].DGCs as { CodigoCultivo: number }[])[0].CodigoCultivo).toBe(101);
    // 10^10 is above every record id (at most 10 digits), so no block id is another record's; all are exact integers
    expect(legacyBlockIds(9_999_999_999, ['a']).a).toBe(9_999_999_999);
    expect(legacyBlockIds(1, ['a', 'b']).b).toBeGreaterThan(9_999_999_999);
    expect(Number.isSafeInteger(legacyBlockIds(9_999_999_999, [...Array(50).keys()].map(String))['49'])).toBe(true);
  });

  it('puts each kind of infection in its ProblematicaFito group', () => {
    const f = farm();
    for (const [kind, group, list] of [
      ['plaga', 'ArtropodosGasteropodos', 'TipoPlaga'],
      ['mala_hierba', 'MalasHierbas', 'TipoMalaHierba'],
      ['regulador', 'ReguladoresOtros', 'TipoRegulador'],
    ] as const) {
      const [block] = blocksOf(record(f, { infection: { type: 'TypeInfection', kind, id: '7', name: '' } }, ['1']), f);
      expect(block.ProblematicaFito).toEqual({ [group]: { [list]: [7] } });
      expectValid(f, [block]);
    }
  });

  it('refuses to map a record missing what SIEX requires, naming every missing piece', () => {
    const f = farm({ codigoRea: '', ownerNif: '' }, null);
    const r = record(f, { infection: undefined, tj: [], efficacy: undefined, manual: undefined, machine: [] });
    const mapped = mapRecord(r, 123, f);
    expect(mapped.ok).toBe(false);
    if (mapped.ok) return;
    expect(mapped.missing).toEqual([
      expect.stringMatching(/REA code/),
      expect.stringMatching(/holder NIF/),
      expect.stringMatching(/^infection/),
      expect.stringMatching(/^tj/),
      expect.stringMatching(/^efficacy/),
      expect.stringMatching(/^equipment/),
      expect.stringMatching(/idcp 1 has no DGC/),
    ]);
  });

  it('writes register numbers as the register does: legacy numbers (five digits from 10000) plain, ES- numbers whole', () => {
    expect(registerNumberText('ES-11179')).toBe('11179');
    expect(registerNumberText('ES-25999')).toBe('25999');
    expect(registerNumberText('ES-00064')).toBe('ES-00064');
    expect(registerNumberText('ES-02112')).toBe('ES-02112');
    expect(registerNumberText('ES-01234')).toBe('ES-01234');
  });

  it('keeps documents valid whatever the free text: line breaks become spaces, repeated justifications are sent once', () => {
    const f = farm();
    const [block] = blocksOf(
      record(
        f,
        {
          detail: 'línea 1\r\nlínea 2\ttab\u2028separada',
          tj: [{ type: 'TypeJustification', id: '1', name: '' }],
          machine: [{ type: 'Machine', id: '060303021', name: '', roma: 'ROMA\n46', inspection: '', ref: '' }],
        },
        ['1'],
      ),
      f,
    );
    const r = record(f, {}, ['1']);
    (r.tj as unknown[]).push({ type: 'TypeJustification', id: '1', name: '' });
    const [twice] = blocksOf(r, f, 124);
    expect(block.Observaciones).toBe('línea 1 línea 2 tab separada');
    expect(equipment(block)[0]).toMatchObject({ NumROMA: 'ROMA 46' });
    expect(twice.Justificaciones).toEqual([{ JustAct: 1 }, { JustAct: 2 }]);
    expectValid(f, [block, twice]);
  });
});

describe('finding 4: the treated area each DGC reports', () => {
  const f = farm();

  it('reports the whole ground of each location when no area is given', () => {
    expect(superficies(blocksOf(record(f), f))).toEqual([
      [4600000007, 2.35],
      [4600000028, 4.12],
    ]);
  });

  it('spreads st in mst (ha or m2) over the enclosures by size: no longer ignored', () => {
    const ha = { type: 'Measure', name: 'Hectáreas', symbol: 'ha', code: 2 };
    const m2 = { type: 'Measure', name: 'Metros cuadrados', symbol: 'm2', code: 1 };
    // 2.35 ha and 4.12 ha (6.47 ha), half of it treated
    // 1.175 and 2.06 exactly; in hundredths (number(8,2)) 1.18 + 2.06 = 3.24, within 0.01 ha of 3.235
    expect(superficies(blocksOf(record(f, { st: '3.235', mst: ha }), f))).toEqual([
      [4600000007, 1.18],
      [4600000028, 2.06],
    ]);
    expect(superficies(blocksOf(record(f, { st: '32350', mst: m2 }), f))).toEqual([
      [4600000007, 1.18],
      [4600000028, 2.06],
    ]);
    expect(superficies(blocksOf(record(f, { surface: '3.235' }), f))).toEqual([
      [4600000007, 1.18],
      [4600000028, 2.06],
    ]);
  });

  it('never reports more than an enclosure, whatever a stored record says (50 ha on a 4.12 ha enclosure)', () => {
    expect(superficies(blocksOf(record(f, { surface: '50' }, ['4']), f))).toEqual([[4600000028, 4.12]]);
  });

  it('reports one 2.35 ha enclosure with two crops as 2.35 ha in all, not 4.70', () => {
    const blocks = blocksOf(record(f, {}, ['1', '6']), f);
    expect(blocks).toHaveLength(2);
    const rows = superficies(blocks);
    // halves of 2.35 in hundredths: 1.18 + 1.17, the sum kept
    expect(rows).toEqual([
      [4600000007, 1.18],
      [4600000091, 1.17],
    ]);
    expect(rows.reduce((n, [, ha]) => n + ha, 0)).toBeCloseTo(2.35, 10);
    expectValid(f, blocks);
  });
});

describe('finding 5: the product line', () => {
  it('sends the dose in its own unit and no Cantidad beside it (one Unidad per line: 15 L next to 0.3 % read as 15 %)', () => {
    const f = farm();
    const [block] = blocksOf(
      record(f, { dose: 0.3, dt: '15', mdt: { type: 'Measure', name: 'Litros', symbol: 'L', code: 4 } }, ['1']),
      f,
    );
    expect(block.ProductosFito).toEqual([{ TipoProducto: 1, NumRegistro: '11179', Dosis: 0.3, Unidad: 14 }]);
  });
});

describe('finding 8: equipment', () => {
  const f = farm();
  const machine = (o: Record<string, string>) => ({
    type: 'Machine',
    id: '060303021',
    name: '',
    roma: '',
    inspection: '',
    ref: '',
    ...o,
  });

  it('sends every machine, each identified on its own: ROMA number, else the ERP ref, else its type and name', () => {
    const [block] = blocksOf(
      record(
        f,
        {
          manual: false,
          machine: [
            machine({ roma: 'ROMA-46-123', inspection: '12-03-2025' }),
            machine({ ref: 'ATOM-2' }),
            machine({ id: '060303011', name: 'Barras 12 m' }),
          ],
        },
        ['1'],
      ),
      f,
    );
    expect(equipment(block)).toEqual([
      { AplicacionManual: false, NumROMA: 'ROMA-46-123', TipoMaquinariaUNE: '060303021' },
      { AplicacionManual: false, IdEquipoAplicador: 'ATOM-2', TipoMaquinariaUNE: '060303021' },
      { AplicacionManual: false, IdEquipoAplicador: '060303011 Barras 12 m', TipoMaquinariaUNE: '060303011' },
    ]);
    // two sprayers of one type are two pieces of equipment, not one
    const [two] = blocksOf(
      record(f, { manual: false, machine: [machine({ ref: 'A' }), machine({ ref: 'B' })] }, ['1']),
      f,
    );
    expect(new Set(equipment(two).map((e) => e.IdEquipoAplicador)).size).toBe(2);
    expectValid(f, [block, two]);
  });

  it('issue 23: manual with a machine is that machine applied by hand, one EquipoAplicador, no invented identifier', () => {
    const [block] = blocksOf(record(f, { manual: true, machine: [machine({ ref: 'A' })] }, ['1']), f);
    expect(equipment(block)).toEqual([
      { AplicacionManual: true, IdEquipoAplicador: 'A', TipoMaquinariaUNE: '060303021' },
    ]);
    expectValid(f, [block]);
  });

  it('issue 23: a hand-held or backpack UNE type is a manual application, whatever manual says', () => {
    for (const id of ['060303013', '060303044', '0630311_88']) {
      const [block] = blocksOf(record(f, { manual: false, machine: [machine({ id, ref: 'M' })] }, ['1']), f);
      expect(equipment(block)).toEqual([{ AplicacionManual: true, IdEquipoAplicador: 'M', TipoMaquinariaUNE: id }]);
    }
    const [tractor] = blocksOf(record(f, { manual: false, machine: [machine({ ref: 'T' })] }, ['1']), f);
    expect(equipment(tractor).map((e) => e.AplicacionManual)).toEqual([false]);
  });

  it('issue 23: manual with no machine is not sent: SIEX needs an identifier, and none is made up', () => {
    const mapped = mapRecord(record(f, { manual: true, machine: [] }, ['1']), 123, f);
    expect(mapped).toEqual({
      ok: false,
      missing: [expect.stringMatching(/^equipment: manual is true but no machine names the hand-held equipment/)],
    });
  });

  it('does not turn a record without machine or manual into a manual application: it is not sent, equipment missing', () => {
    const mapped = mapRecord(record(f, { manual: false, machine: [] }, ['1']), 123, f);
    expect(mapped).toEqual({
      ok: false,
      missing: [expect.stringMatching(/^equipment: no machine, and manual is not true/)],
    });
  });
});

describe("issue 12, item 12: the advisor's validation and the phenological stage", () => {
  const f = farm();

  it('sends reviewed and recipe as AsesorValidacion with the advisor ROPO, and the stage on every DGC', () => {
    const blocks = blocksOf(
      record(f, {
        reviewed: '1',
        recipe: 'REC-77\n2026',
        advisor: { type: 'UserMetadata', ropo: 'ES-46000777' },
        phenology: { type: 'TypePhenology', id: '7', name: 'Desarrollo del fruto' },
      }),
      f,
    );
    for (const b of blocks) {
      expect(b.AsesorValidacion).toEqual({
        NumROPO: 'ES-46000777',
        Validacion: true,
        Observaciones: 'Receta REC-77 2026',
      });
      expect((b.DGCs as { EstadoFenologico: number }[]).map((d) => d.EstadoFenologico)).toEqual([7]);
    }
    expectValid(f, blocks);
  });

  it('sends no AsesorValidacion without an advisor (the schema requires its ROPO number), nor a stage not given', () => {
    const [block] = blocksOf(record(f, { reviewed: '1', recipe: 'REC-77' }, ['1']), f);
    expect(block).not.toHaveProperty('AsesorValidacion');
    expect(block.DGCs).toEqual([{ CodigoDGC: 4600000007, CodigoCultivo: 102, Superficie: 2.35 }]);
  });
});

describe('issue 13: what a record is sent as, given what SIEX holds of it', () => {
  const f = farm();
  const [vine, olive] = blocksOf(record(f), f) as [TratamFito, TratamFito];

  it('an export sends the record as it is, and Borrar for a block SIEX holds that it no longer has', () => {
    // exported on vine and olive, then amended to the vine alone
    const sent = blocksToSend(treatmentCue, [vine], [123, 10_000_000_123], false);
    expect(sent.map((b) => [b.IdAjenaTratamFito, b.Borrar ?? false])).toEqual([
      [123, false],
      [10_000_000_123, true],
    ]);
    expect(blocksToSend(treatmentCue, [vine, olive], [123, 10_000_000_123], false)).toEqual([vine, olive]);
    expect(blocksToSend(treatmentCue, [vine, olive], [], false)).toEqual([vine, olive]);
    expectValid(f, sent);
  });

  it('a deletion sends Borrar for every block SIEX holds, or for the current ones when those are not known', () => {
    expect(
      blocksToSend(treatmentCue, [vine], [123, 10_000_000_123], true).map((b) => [b.IdAjenaTratamFito, b.Borrar]),
    ).toEqual([
      [123, true],
      [10_000_000_123, true],
    ]);
    const unknown = blocksToSend(treatmentCue, [vine, olive], [], true);
    expect(unknown.map((b) => [b.IdAjenaTratamFito, b.Borrar])).toEqual([
      [123, true],
      [10_000_000_123, true],
    ]);
    expect(unknown[1].DGCs).toEqual(olive.DGCs);
    expectValid(f, unknown);
  });

  /** A block's body as SIEX accepted it, without its IdAjena (what the export state keeps). */
  const keptOf = (b: TratamFito) => {
    const { IdAjenaTratamFito: _id, ...body } = b;
    return body;
  };

  it('issue 35 item 4: the Borrar of a crop an amendment took away names that crop as SIEX holds it, not a current one', () => {
    // exported on vine (123) and olive (10_000_000_123), then amended to the vine alone
    const kept = { 123: keptOf(vine), 10_000_000_123: keptOf(olive) };
    const sent = blocksToSend(treatmentCue, [vine], [123, 10_000_000_123], false, kept);
    expect(sent[1]).toEqual({ ...olive, Borrar: true });
    expect(sent[1].DGCs).toEqual(olive.DGCs);
    expect(sent[1].DGCs).not.toEqual(vine.DGCs);
    expectValid(f, sent);
    // a row stored before bodies were kept: as before, the current block's body under the deleted id
    const legacy = blocksToSend(treatmentCue, [vine], [123, 10_000_000_123], false);
    expect(legacy[1]).toEqual({ ...vine, IdAjenaTratamFito: 10_000_000_123, Borrar: true });
  });

  it('issue 35 item 4: deleting a record sends each block SIEX holds as SIEX holds it, whatever the record says now', () => {
    const kept = { 123: keptOf(vine), 10_000_000_123: keptOf(olive) };
    const r = record(f, {}, ['1']);
    const sent = recordBlocks(
      treatmentCue,
      { record: r, recordId: 123, blockIds: null, held: [123, 10_000_000_123], kept },
      f,
      true,
    );
    if (!sent.ok) throw new Error(sent.missing.join('; '));
    expect(sent.blocks).toEqual([
      { ...vine, Borrar: true },
      { ...olive, Borrar: true },
    ]);
    // one body not kept: the record is mapped, and the kept body still wins where there is one
    const partial = recordBlocks(
      treatmentCue,
      {
        record: r,
        recordId: 123,
        blockIds: null,
        held: [123, 10_000_000_123],
        kept: { 10_000_000_123: keptOf(olive) },
      },
      f,
      true,
    );
    if (!partial.ok) throw new Error(partial.missing.join('; '));
    expect(partial.blocks[1].DGCs).toEqual(olive.DGCs);
    expect(partial.blocks[0].DGCs).toEqual(vine.DGCs);
  });
});

describe('issue 23 item 2: each crop and variety keeps its IdAjena, whatever the order', () => {
  const f = farm();
  /** Ids as a registration allocates them: the record id for its first crop and variety, fresh ones after it. */
  const counter = (first: number) => {
    let next = first;
    return { take: async () => next++ };
  };
  const held = (blocks: TratamFito[]) =>
    blocks.map((b) => [b.IdAjenaTratamFito, (b.DGCs as { CodigoCultivo: number }[])[0].CodigoCultivo]);

  it('a record on three crops gets three ids of at most 10 digits; reordering them keeps each crop under its id', async () => {
    const ids = await allocateBlockIds(null, blockKeysOf(['1', '4', '5'], f), counter(9_999_999_990), 123);
    expect(Object.values(ids)).toEqual([123, 9_999_999_990, 9_999_999_991]);
    const first = mapRecord(record(f, {}, ['1', '4', '5']), 123, f, ids);
    const reordered = mapRecord(record(f, {}, ['5', '4', '1']), 123, f, ids);
    if (!first.ok || !reordered.ok) throw new Error('not mapped');
    expect(held(first.blocks)).toEqual([
      [123, 102],
      [9_999_999_990, 101],
      [9_999_999_991, 102],
    ]);
    expect(new Map(held(reordered.blocks) as [number, number][])).toEqual(
      new Map(held(first.blocks) as [number, number][]),
    );
    expect(descriptorProblems(cueDocument(f, { TratamFito: first.blocks }))).toEqual([]);
  });

  it('an amendment keeps the ids of the crops still covered, gives a new crop a new id and never reuses one', async () => {
    const before = await allocateBlockIds(null, blockKeysOf(['1', '4'], f), counter(500), 123);
    // olive dropped, BOBAL added, TEMPRANILLO named last
    const after = await allocateBlockIds(before, blockKeysOf(['5', '1'], f), counter(501), 123);
    expect(after).toEqual({ [blockKeysOf(['5'], f)[0]]: 501, [blockKeysOf(['1'], f)[0]]: 123 });
    // olive back: a new id, not the 500 SIEX was told to delete
    const again = await allocateBlockIds(after, blockKeysOf(['1', '4'], f), counter(502), 123);
    expect(Object.values(again)).toEqual([123, 502]);
    const mapped = mapRecord(record(f, {}, ['5', '1']), 123, f, after);
    if (!mapped.ok) throw new Error('not mapped');
    // SIEX held 123 (vine) and 500 (olive): the olive block goes as Borrar under its own id
    expect(
      blocksToSend(treatmentCue, mapped.blocks, [123, 500], false).map((b) => [b.IdAjenaTratamFito, b.Borrar ?? false]),
    ).toEqual([
      [501, false],
      [123, false],
      [500, true],
    ]);
  });

  it('a record stored before ids were kept reads the ids SIEX holds: the k-th crop k × 10^10 + id', async () => {
    const legacy = legacyBlockIds(123, blockKeysOf(['1', '4'], f));
    expect(blocksOf(record(f, {}, ['1', '4']), f)).toEqual(
      (mapRecord(record(f, {}, ['1', '4']), 123, f, legacy) as { blocks: TratamFito[] }).blocks,
    );
    // amended after the change: the ids SIEX holds stay but an 11-digit one (SIEX is sent Borrar under it, as it
    // stays in what SIEX holds), and every other crop gets a 10-digit id
    const held = legacyBlockIds(123, blockKeysOf(['1', '4'], f), [123, 10_000_000_123]);
    expect(Object.values(held)).toEqual([123]);
    const amended = await allocateBlockIds(held, blockKeysOf(['4', '5'], f), counter(777), 123);
    expect(Object.values(amended)).toEqual([777, 778]);
    // never exported: the olive's 11-digit id was never SIEX's, so it gets a 10-digit one too
    const unsent = legacyBlockIds(123, blockKeysOf(['1', '4'], f), []);
    expect(Object.values(await allocateBlockIds(unsent, blockKeysOf(['1', '4'], f), counter(778), 123))).toEqual([
      123, 778,
    ]);
  });

  it('a deletion sends Borrar under the ids SIEX holds even when the REA changed a crop since the record was stored', () => {
    // stored on TEMPRANILLO (idcp 1) and olive (idcp 4); the REA now has BOBAL on idcp 1's enclosure
    const ids = { [blockKeysOf(['1'], f)[0]]: 123, [blockKeysOf(['4'], f)[0]]: 500 };
    const changed = new FarmIndex({ ...f.doc, idcps: f.doc.idcps.map((e) => (e.idcp === 1 ? { ...e, crop: 2 } : e)) });
    const r = record(changed, {}, ['1', '4']);
    expect(
      recordBlocks(treatmentCue, { record: r, recordId: 123, blockIds: ids, held: [] }, changed, false),
    ).toMatchObject({ ok: false });
    const sent = recordBlocks(
      treatmentCue,
      { record: r, recordId: 123, blockIds: ids, held: [123, 500] },
      changed,
      true,
    );
    if (!sent.ok) throw new Error(sent.missing.join('; '));
    expect(sent.blocks.map((b) => [b.IdAjenaTratamFito, b.Borrar])).toEqual([
      [123, true],
      [500, true],
    ]);
  });

  it('a crop the record did not cover when stored (the farm data changed) is not sent under an id made up now', () => {
    const ids = { [blockKeysOf(['1'], f)[0]]: 123 };
    expect(mapRecord(record(f, {}, ['1', '4']), 123, f, ids)).toMatchObject({ ok: false });
  });
});
