import { harvestKind } from '../../shared/harvest/harvest-kind';
import { harvestRequestSchema } from '../../shared/harvest/wire';
import { cueDocument } from '../../shared/siex/cue-mapping';
import { descriptorProblems, leafCount } from '../helpers/cue-descriptor';
import { cueValidator } from '../helpers/cue-schema';
import { grapesBody, HARVESTER, harvestFarm } from '../helpers/harvest-fixtures';
import { madrid, testSiexCodes } from '../helpers/phyto-fixtures';

/**
 * Issue 34, item 1: the harvest through the records core's port (shared/records/record-kind.ts), as the core drives a
 * kind: a request mapped to its domain value and back, judged, its view, and its one `Cosecha` block, valid against
 * schema 3.11.4 and the descriptor table.
 */
describe('the harvest record kind', () => {
  const kind = harvestKind;
  const reference = { products: new Map(), applicators: new Map(), codes: testSiexCodes() };
  const farm = harvestFarm();
  const now = madrid('14-05-2026 18:00:00');
  const judge = (body: Record<string, unknown>, maxBackdateDays: number | null = 7) => {
    const request = kind.toRequest(body);
    const appliedAt = kind.appliedAt(request);
    const window = maxBackdateDays === null ? null : kind.recordingWindow({ MAX_BACKDATE_DAYS: maxBackdateDays });
    return kind.judge({ request, appliedAt, now, window, farm, history: new Map(), own: null, reference });
  };
  const codes = (body: Record<string, unknown>) => judge(body).violations.map((v) => `${v.code} ${v.path}`);
  const recordOf = (body: Record<string, unknown>, id = 7) => {
    const request = kind.toRequest(body);
    const { resolution } = judge(body);
    return kind.view({ id, request, resolution, farm, exported: false, now });
  };

  it('maps the wire body to its domain value and back, with the schema defaults the issue names', () => {
    const body = harvestRequestSchema.parse(grapesBody({ machine: HARVESTER, dateEnd: '15-05-2026' }));
    expect(body).toMatchObject({ cut: 'harvest', seedForSowing: false, plants: false, notHarvested: false });
    expect(body.leftOnSoil).toBe(false);
    expect(kind.toWire(kind.toRequest(body))).toEqual(body);
    expect(kind.fromStored(JSON.parse(JSON.stringify(kind.toStored(kind.toRequest(body)))))).toEqual(
      kind.toRequest(body),
    );
    expect(kind.appliedAt(kind.toRequest(body)).toISO()).toBe('2026-05-14T00:00:00.000+02:00');
    expect(kind.listValue(kind.toRequest(body))).toBe('210');
    expect(kind.historyKeys(farm, kind.toRequest(body))).toEqual([]);
  });

  it('accepts a valid harvest, with its machine, and refuses each rule at its path', () => {
    expect(codes(grapesBody({ machine: HARVESTER }))).toEqual([]);
    // t/ha is a yield, not an amount.
    expect(codes(grapesBody({ measure: { type: 'Measure', name: 't/ha', symbol: 't/ha', code: 29 } }))).toEqual([
      'HARVEST_QUANTITY_UNIT body.measure.code',
    ]);
    // Units and volumes are amounts too.
    expect(codes(grapesBody({ measure: { type: 'Measure', name: 'Unidades', symbol: 'Unidades', code: 11 } }))).toEqual(
      [],
    );
    expect(codes(grapesBody({ measure: { type: 'Measure', name: 'Litro', symbol: 'L', code: 4 } }))).toEqual([]);
    expect(codes(grapesBody({ purpose: [{ type: 'TypeHarvestPurpose', id: '99' }] }))).toEqual([
      'UNKNOWN_SIEX_CODE body.purpose[0].id',
    ]);
    expect(codes(grapesBody({ residue: [{ type: 'TypeResidueDestination', id: '10' }] }))).toEqual([
      'UNKNOWN_SIEX_CODE body.residue[0].id',
    ]);
    expect(codes(grapesBody({ product: { type: 'TypePlantProduct', id: '530' } }))).toEqual([
      'UNKNOWN_SIEX_CODE body.product.id',
    ]);
    expect(
      codes(
        grapesBody({
          machine: {
            ...HARVESTER,
            energy: { type: 'TypeEnergy', id: '99' },
            powerMeasure: { type: 'Measure', name: 'kg', symbol: 'kg', code: 5 },
          },
        }),
      ),
    ).toEqual(['UNKNOWN_SIEX_CODE body.machine.energy.id', 'MEASURE_MISMATCH body.machine.powerMeasure.code']);
    expect(codes(grapesBody({ idcp: ['999'] }))).toEqual(['IDCP_NOT_FOUND body.idcp[0]']);
    expect(codes(grapesBody({ dateEnd: '15-05-2026' }))).toEqual(['DATE_IN_FUTURE body.dateEnd']);
    expect(codes(grapesBody({ dateStart: '06-05-2026' }))).toEqual(['DATE_TOO_OLD body.dateStart']);
    expect(judge(grapesBody({ dateStart: '06-05-2026' }), null).violations).toEqual([]);
  });

  it("refuses a product that is not produce of every location's crop, at body.product (PROD_VEGETAL)", () => {
    // Aceitunas (1) on a vine, and wine grapes on an olive beside a vine.
    const olives = { type: 'TypePlantProduct', id: '1', name: 'Aceitunas' };
    expect(judge(grapesBody({ product: olives })).violations).toEqual([
      {
        code: 'HARVEST_PRODUCT_NOT_OF_CROP',
        path: 'body.product',
        message:
          '1 (Aceitunas) is not produce of 102 VIÑA, the crop of a location harvested; PROD_VEGETAL gives it for 101, 363',
      },
    ]);
    expect(codes(grapesBody({ idcp: ['101', '201'] }))).toEqual(['HARVEST_PRODUCT_NOT_OF_CROP body.product']);
    expect(codes(grapesBody({ idcp: ['201'], product: olives }))).toEqual([]);
  });

  it('maps to one Cosecha block of every location, valid against schema 3.11.4 and the descriptor', () => {
    const record = recordOf(
      grapesBody({
        idcp: ['101', '102', '103'],
        dateEnd: '14-05-2026',
        quantity: 12000.456,
        machine: HARVESTER,
        cut: 'mowing',
        leftOnSoil: true,
      }),
    );
    expect(record).toMatchObject({ id: 'urn:ngsi-ld:AgriHarvest:7', dateEnd: '14-05-2026', exported: '0' });
    expect(kind.answer(record, farm, null)).toMatchObject({ exportable: true, exportBlockers: [] });
    expect(kind.blockKeys(farm, kind.toRequest(grapesBody()))).toEqual(['harvest']);
    const mapped = kind.cue.map(record, farm);
    if (!mapped.ok) throw new Error(mapped.missing.join('; '));
    expect(mapped.blocks.map((b) => b.key)).toEqual(['harvest']);
    const block = { [kind.cue.idAjena]: 9999999999, ...mapped.blocks[0].body };
    expect(block).toEqual({
      IdAjenaCosecha: 9999999999,
      CosechaSiega: 0,
      FechaInicio: '14/05/2026',
      FechaFin: '14/05/2026',
      Cantidad: 12000.46,
      Unidad: 5,
      DGCs: [101, 102, 103].map((idcp) => ({
        CodigoDGC: 4600000000 + idcp,
        CodigoCultivo: 102,
        Superficie: expect.any(Number),
        ProductoCosechado: 210,
      })),
      FinalidadCosecha: [{ IdFinalidad: 1 }],
      DestinoRestoVeg: [{ IdDestinoRest: 1 }],
      SemillasSiembra: false,
      Plantas: false,
      SinCosechado: false,
      DepositadoSuelo: true,
      Maquinaria: [
        {
          TipoMaquinariaUNE: '070506011',
          PotenciaMaquinaria: 120,
          UnidadesMedida: 40,
          TipoEnergia: 2,
          NumRepeticiones: 2,
          Duracion: 9,
        },
      ],
    });
    const doc = cueDocument(farm, { [kind.cue.section]: [block, { ...block, IdAjenaCosecha: 1, Borrar: true }] });
    const validate = cueValidator();
    expect([validate(doc), validate.errors ?? []]).toEqual([true, []]);
    expect(descriptorProblems(doc)).toEqual([]);
    expect(leafCount(doc)).toBeGreaterThan(30);
    // Every field of the section's table is written by this document.
    const written = (v: unknown, p: string): string[] =>
      Array.isArray(v)
        ? v.flatMap((x) => written(x, p))
        : v !== null && typeof v === 'object'
          ? Object.entries(v).flatMap(([k, x]) => written(x, `${p}.${k}`))
          : [p];
    expect(new Set(written(doc.CUADERNO, 'CUADERNO'))).toEqual(
      new Set([
        ...Object.keys(kind.cue.fields),
        ...written(doc.CUADERNO[0], 'CUADERNO').filter((p) => !p.includes('.Cosecha.')),
      ]),
    );
    // The least block: no purposes, residues nor machine.
    const bare = kind.cue.map(recordOf(grapesBody({ purpose: [], residue: [] })), farm);
    if (!bare.ok) throw new Error(bare.missing.join('; '));
    const least = cueDocument(farm, { Cosecha: [{ IdAjenaCosecha: 1, ...bare.blocks[0].body }] });
    expect([validate(least), descriptorProblems(least)]).toEqual([true, []]);
  });

  it('holds back a quantity SIEX cannot take: over the number(8,2) of Cantidad', () => {
    const mapped = kind.cue.map(recordOf(grapesBody({ quantity: 1_000_000 })), farm);
    expect(mapped).toEqual({ ok: false, missing: [expect.stringContaining('does not fit number(8,2)')] });
    expect(kind.answer(recordOf(grapesBody({ quantity: 1_000_000 })), farm, null)).toMatchObject({
      exportable: false,
    });
  });
});
