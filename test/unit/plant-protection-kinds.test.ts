import { buildDemoDataset } from '../../local/demo/build-dataset';
import { facilityKind } from '../../shared/facility/facility-kind';
import { postHarvestKind } from '../../shared/post-harvest/post-harvest-kind';
import { RecordKind } from '../../shared/records/record-kind';
import { harvestFarm } from '../helpers/harvest-fixtures';
import { checkKindDocument } from '../helpers/kind-harness';
import { CARDS, madrid, microthiol, testSiexCodes } from '../helpers/phyto-fixtures';

/**
 * Issue 34, items 2 and 3: the post-harvest and the store treatment through the records core's port, as the core
 * drives a kind: judged against the register's uses of their scope (a field-only product is 422 at body.subtype, a
 * post-harvest or facility one is taken), the pests their blocks can state, the quantities as their blocks take them,
 * and each one CUE block valid against schema 3.11.4 and its descriptor table. Clock: 15-05-2026 12:00 Madrid.
 */
const demo = buildDemoDataset().products;
const product = (code: string) => demo.find((p) => p.code === code)!;
const reference = {
  products: new Map([microthiol(), product('ES-16232'), product('ES-25710')].map((p) => [p.code, p])),
  applicators: new Map(Object.values(CARDS).map((c) => [c.ropo, c])),
  codes: testSiexCodes(),
};
const farm = harvestFarm();
const now = madrid('15-05-2026 12:00:00');

type Body = Record<string, unknown>;

function judgeWith<R>(kind: RecordKind<R, unknown>, body: Body) {
  const request = kind.toRequest(body);
  const appliedAt = kind.appliedAt(request);
  const window = kind.recordingWindow({ MAX_BACKDATE_DAYS: 7 });
  return kind.judge({ request, appliedAt, now, window, farm, history: new Map(), own: null, reference });
}

function blockOf<R>(kind: RecordKind<R, unknown>, body: Body) {
  const request = kind.toRequest(body);
  const { resolution } = judgeWith(kind, body);
  const record = JSON.parse(JSON.stringify(kind.view({ id: 7, request, resolution, farm, exported: false, now })));
  return { record, mapped: kind.cue.map(record, farm) };
}

/** The document of one block (and its Borrar twin), checked by ajv and by the kind's descriptor table. */
const checkDocument = <R>(kind: RecordKind<R, unknown>, body: Record<string, unknown>) =>
  checkKindDocument(farm, kind.cue, body);

const part = {
  applicator: { user: { type: 'UserMetadata', nif: CARDS.basico.nif, ropo: CARDS.basico.ropo } },
  tj: [{ type: 'TypeJustification', id: '1' }],
  efficacy: { type: 'TypeEfficacy', id: '1' },
  machine: [{ type: 'Machine', id: '060303013', name: 'Mochila', ref: 'MOCHILA-1' }],
};

const L_PER_KG = { type: 'Measure', name: 'L/kg', symbol: 'L/kg', code: 39 } as const;
const TONNES = { type: 'Measure', name: 't', symbol: 't', code: 6 } as const;
const PERCENT = { type: 'Measure', name: 'Porcentaje', symbol: '%', code: 14 } as const;
const FUNGI = { type: 'TypeInfection', kind: 'enfermedad', id: '5', name: 'Enfermedades post-cosecha (hongos)' };
const INSECTS = { type: 'TypeInfection', kind: 'plaga', id: '33', name: 'Insectos de almacén' };
const WEED = { type: 'TypeInfection', kind: 'mala_hierba', id: '1', name: 'Malas hierbas' };
const REGULATOR = { type: 'TypeInfection', kind: 'regulador', id: '1', name: 'Reguladores' };

/** 24 t of oranges (PROD_VEGETAL 116) waxed with CITRASHINE N-IMZ at 0.001 L/kg (its post-harvest use, 1 L/t). */
function waxing(o: Body = {}): Body {
  return {
    type: 'AgriPostHarvestTreatment',
    dateApplication: '14-05-2026 10:00:00',
    plantProduct: { type: 'TypePlantProduct', id: '116', name: 'Naranjas', quantity: 24, measure: TONNES },
    subtype: { type: 'TypePhytosanitary', name: 'CITRASHINE N-IMZ', code: 'ES-16232' },
    dose: 0.001,
    measure: L_PER_KG,
    infection: FUNGI,
    ...part,
    ...o,
  };
}

/** An 850 m3 store (class 3, REA building 4600012) sprayed with K-OBIOL EC 25 at 0.5 cc/m2 (its facility use). */
function spraying(o: Body = {}): Body {
  return {
    type: 'AgriFacilityTreatment',
    dateApplication: '14-05-2026 10:00:00',
    facilities: [
      {
        type: 'TypeFacility',
        id: '3',
        reaId: 4600012,
        volume: 850,
        measure: { type: 'Measure', name: 'm3', symbol: 'm3', code: 3 },
      },
    ],
    subtype: { type: 'TypePhytosanitary', name: 'K-OBIOL EC 25', code: 'ES-25710' },
    dose: 0.5,
    measure: { type: 'Measure', name: 'cc/m2', symbol: 'cc/m2', code: 78 },
    infection: INSECTS,
    ...part,
    ...o,
  };
}

const SULPHUR = { type: 'TypePhytosanitary', name: 'MICROTHIOL SPECIAL DISPERSS', code: 'ES-11179' };

describe('the post-harvest treatment record kind', () => {
  const kind = postHarvestKind as RecordKind<unknown, unknown>;
  const codes = (body: Body) => judgeWith(kind, body).violations.map((v) => `${v.code} ${v.path}`);

  it('maps the wire body to its domain value and back, and keeps no history', () => {
    const request = kind.toRequest(waxing());
    expect(kind.fromStored(JSON.parse(JSON.stringify(kind.toStored(request))))).toEqual(request);
    expect(kind.toWire(request)).toMatchObject({ plantProduct: { id: '116', quantity: 24 }, dose: 0.001 });
    expect(kind.listValue(request)).toBe('ES-16232');
    expect(kind.historyKeys(farm, request)).toEqual([]);
  });

  it('takes a product whose use is post-harvest on a crop of the produce, and refuses a field-only one at body.subtype', () => {
    expect(codes(waxing())).toEqual([]);
    expect(codes(waxing({ subtype: SULPHUR, dose: 0.5, measure: PERCENT }))).toEqual([
      'PRODUCT_NOT_FOR_CROP body.subtype',
    ]);
    // Wine grapes (PROD_VEGETAL 210, crop VIÑA) are no crop of the wax's citrus use.
    expect(
      codes(waxing({ plantProduct: { type: 'TypePlantProduct', id: '210', quantity: 9, measure: TONNES } })),
    ).toEqual(['PRODUCT_NOT_FOR_CROP body.subtype']);
    // The use's dose, 1 L/t, at its boundary: twice it is above the range.
    expect(codes(waxing({ dose: 0.002 }))).toEqual(['DOSE_ABOVE_MAX body.dose']);
  });

  it('refuses a weed (no MalasHierbas in the block) and produce not weighed', () => {
    expect(codes(waxing({ infection: WEED }))).toEqual(
      expect.arrayContaining(['INFECTION_KIND_NOT_IN_BLOCK body.infection.kind']),
    );
    expect(
      codes(waxing({ plantProduct: { type: 'TypePlantProduct', id: '116', quantity: 24, measure: PERCENT } })),
    ).toEqual(['TREATED_QUANTITY_UNIT body.plantProduct.measure.code']);
    expect(
      codes(waxing({ plantProduct: { type: 'TypePlantProduct', id: '9999', quantity: 24, measure: TONNES } })),
    ).toEqual(expect.arrayContaining(['UNKNOWN_SIEX_CODE body.plantProduct.id']));
  });

  it('maps to one TratamientosPostCosecha block in kg, its total derived from a dose per kg of produce', () => {
    const { mapped } = blockOf(kind, waxing());
    if (!mapped.ok) throw new Error(mapped.missing.join('; '));
    expect(mapped.blocks).toEqual([
      {
        key: 'postharvest',
        body: {
          FechaActuacion: '14/05/2026',
          ProductoVegetal: 116,
          Cantidad: 24000,
          ProblematicaFito: { Enfermedades: { TipoEnfermedad: [5] } },
          Justificaciones: [{ JustAct: 1 }],
          ProductosFito: [{ TipoProducto: 1, NumRegistro: '16232', Cantidad: 24, Unidad: 4 }],
          IdentificadorAplicador: [
            { AplicadorEmpresa: { NumROPO: CARDS.basico.ropo }, EquipoAplicador: { IdEquipoAplicador: 'MOCHILA-1' } },
          ],
          Eficacia: 1,
        },
      },
    ]);
    checkDocument(kind, mapped.blocks[0].body);
  });

  it('sends the total the request gives, and holds back a record whose total cannot be known', () => {
    const given = blockOf(kind, waxing({ dt: '23.5', mdt: { type: 'Measure', name: 'L', symbol: 'L', code: 4 } }));
    expect(given.mapped).toMatchObject({
      ok: true,
      blocks: [{ body: { ProductosFito: [{ Cantidad: 23.5, Unidad: 4 }] } }],
    });
    // A dose per hectolitre of mixture says nothing of the total.
    const perHl = { type: 'Measure', name: 'cc/hL', symbol: 'cc/hL', code: 64 };
    const unknown = blockOf(kind, waxing({ dose: 100, measure: perHl }));
    expect(unknown.mapped).toEqual({
      ok: false,
      missing: [expect.stringContaining('dt: the total amount of ES-16232')],
    });
    expect(kind.answer(unknown.record, farm, null)).toMatchObject({ exportable: false });
  });
});

describe('the store and premises treatment record kind', () => {
  const kind = facilityKind as RecordKind<unknown, unknown>;
  const codes = (body: Body) => judgeWith(kind, body).violations.map((v) => `${v.code} ${v.path}`);

  it('maps the wire body to its domain value and back', () => {
    const request = kind.toRequest(spraying());
    expect(kind.fromStored(JSON.parse(JSON.stringify(kind.toStored(request))))).toEqual(request);
    expect(kind.toWire(request)).toMatchObject({ facilities: [{ id: '3', reaId: 4600012, volume: 850 }] });
  });

  it('takes a product with a facility use naming no crop, and refuses a field-only one at body.subtype', () => {
    expect(codes(spraying())).toEqual([]);
    expect(codes(spraying({ subtype: SULPHUR, dose: 0.5, measure: PERCENT, infection: FUNGI }))).toEqual([
      'PRODUCT_NOT_FOR_CROP body.subtype',
    ]);
    expect(codes(spraying({ dose: 0.7 }))).toEqual(['DOSE_ABOVE_MAX body.dose']);
    expect(codes(spraying({ dose: 0.6 }))).toEqual([]);
  });

  it('refuses a weed and a growth regulation (neither has a group in the block), an unknown class and an area', () => {
    for (const pest of [WEED, REGULATOR])
      expect(codes(spraying({ infection: pest }))).toEqual(
        expect.arrayContaining(['INFECTION_KIND_NOT_IN_BLOCK body.infection.kind']),
      );
    const facility = (spraying().facilities as Body[])[0];
    expect(codes(spraying({ facilities: [{ ...facility, id: '999' }] }))).toEqual([
      'UNKNOWN_SIEX_CODE body.facilities[0].id',
    ]);
    const m2 = { type: 'Measure', name: 'm2', symbol: 'm2', code: 1 };
    expect(codes(spraying({ facilities: [{ ...facility, measure: m2 }] }))).toEqual([
      'TREATED_QUANTITY_UNIT body.facilities[0].measure.code',
    ]);
  });

  it('maps to one TratamientosEdifInstalaciones block: the REA building id, the volume in m3, the dose', () => {
    const litres = { type: 'Measure', name: 'L', symbol: 'L', code: 4 };
    const facility = (spraying().facilities as Body[])[0];
    const { mapped } = blockOf(
      kind,
      spraying({ facilities: [facility, { ...facility, reaId: 4600013, volume: 20_000, measure: litres }] }),
    );
    if (!mapped.ok) throw new Error(mapped.missing.join('; '));
    expect(mapped.blocks[0].body).toEqual({
      Edificaciones: [
        { IdEdificacion: 4600012, Volumen: 850, Unidad: 3 },
        { IdEdificacion: 4600013, Volumen: 20, Unidad: 3 },
      ],
      FechaActuacion: '14/05/2026',
      ProblematicaFito: { ArtropodosGasteropodos: { TipoPlaga: [33] } },
      Justificaciones: [{ JustAct: 1 }],
      ProductosFito: [{ TipoProducto: 1, NumRegistro: '25710', Dosis: 0.5, Unidad: 78 }],
      IdentificadorAplicador: [
        { AplicadorEmpresa: { NumROPO: CARDS.basico.ropo }, EquipoAplicador: { IdEquipoAplicador: 'MOCHILA-1' } },
      ],
      Eficacia: 1,
    });
    checkDocument(kind, mapped.blocks[0].body);
  });

  it('holds back a record without the equipment SIEX requires', () => {
    const { mapped } = blockOf(kind, spraying({ machine: null }));
    expect(mapped).toEqual({ ok: false, missing: [expect.stringContaining('EquipoAplicador')] });
  });
});
