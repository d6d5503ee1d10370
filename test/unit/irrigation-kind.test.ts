import { FarmIndex } from '../../shared/farms/farm-index';
import { irrigationKind } from '../../shared/irrigation/irrigation-kind';
import { irrigationRecordSchema } from '../../shared/irrigation/wire';
import { cueDocument } from '../../shared/siex/cue-mapping';
import { descriptorProblems, ENVELOPE_FIELDS } from '../../shared/siex/cue-descriptor';
import { cueValidator } from '../helpers/cue-schema';
import { fertilizationFarm } from '../helpers/fertilization-fixtures';
import { dripBody, WATER_UNITS } from '../helpers/irrigation-fixtures';
import { madrid, testSiexCodes } from '../helpers/phyto-fixtures';

/**
 * Issue 35, item 1: the irrigation (`AgriIrrigation`, CUE `Riego`, RD 1051/2022 art. 5) through the records core's
 * port (shared/records/record-kind.ts), as the core drives a kind: a request mapped to its domain value, judged, its
 * view, and its CUE blocks, valid against schema 3.11.4 and the descriptor table. Each rule at its boundary.
 */
describe('the irrigation record kind', () => {
  const kind = irrigationKind;
  const reference = { products: new Map(), applicators: new Map(), codes: testSiexCodes() };
  // Vine (102) on idcp 101 (2.35 ha), 102 (1.10 ha) and 103 (3.80 ha); olive on 201 (4.12 ha).
  const farm = fertilizationFarm();
  const now = madrid('14-05-2026 18:00:00');
  const judge = (body: Record<string, unknown>, keepsDate = false) => {
    const request = kind.toRequest(body);
    const window = keepsDate ? null : kind.recordingWindow({ MAX_BACKDATE_DAYS: 7 });
    return kind.judge({
      request,
      appliedAt: kind.appliedAt(request),
      now,
      window,
      farm,
      history: new Map(),
      own: null,
      reference,
    });
  };
  const codes = (body: Record<string, unknown>, keepsDate = false) =>
    judge(body, keepsDate).violations.map((v) => `${v.code} ${v.path}`);
  const recordOf = (body: Record<string, unknown>, id = 7) => {
    const { violations, resolution } = judge(body);
    if (violations.length) throw new Error(JSON.stringify(violations));
    return kind.view({ id, request: kind.toRequest(body), resolution, farm, exported: false, now });
  };
  const blocksOf = (body: Record<string, unknown>, f: FarmIndex = farm) => {
    const mapped = kind.cue.map(recordOf(body), f);
    if (!mapped.ok) throw new Error(mapped.missing.join('; '));
    return mapped.blocks;
  };

  it('maps the wire body to its domain value and back, keyed by its system for lists', () => {
    const body = kind.wire.request.parse(dripBody());
    expect(kind.toWire(kind.toRequest(body))).toEqual(body);
    expect(kind.fromStored(JSON.parse(JSON.stringify(kind.toStored(kind.toRequest(body)))))).toEqual(
      kind.toRequest(body),
    );
    expect(kind.appliedAt(kind.toRequest(body)).toISO()).toBe('2026-05-13T00:00:00.000+02:00');
    expect(kind.listValue(kind.toRequest(body))).toBe('6');
    expect(kind.historyKeys(farm, kind.toRequest(body))).toEqual([]);
  });

  it('refuses an irrigation that ends before it starts, and takes one that ends the day it starts', () => {
    const parsed = (o: Record<string, unknown>) => kind.wire.request.safeParse(dripBody(o));
    expect(parsed({ dateStart: '14-05-2026', dateEnd: '14-05-2026' }).success).toBe(true);
    const before = parsed({ dateStart: '14-05-2026', dateEnd: '13-05-2026' });
    expect(before.success ? [] : before.error.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['dateEnd', 'dateEnd is before dateStart'],
    ]);
    // Across a year: compared as days, not as text.
    expect(parsed({ dateStart: '31-12-2025', dateEnd: '01-01-2026' }).success).toBe(true);
    expect(parsed({ quantity: 0 }).success).toBe(false);
    expect(parsed({ dateEnd: undefined }).success).toBe(false);
  });

  it("takes RD 1051/2022's month to register, and no last day in the future", () => {
    expect(codes(dripBody({ dateStart: '14-04-2026', dateEnd: '14-04-2026' }))).toEqual([]);
    expect(codes(dripBody({ dateStart: '13-04-2026', dateEnd: '14-04-2026' }))).toEqual([
      'DATE_TOO_OLD body.dateStart',
    ]);
    // An amendment keeping its date is judged with no window.
    expect(codes(dripBody({ dateStart: '13-04-2026', dateEnd: '14-04-2026' }), true)).toEqual([]);
    expect(codes(dripBody({ dateEnd: '14-05-2026' }))).toEqual([]);
    expect(codes(dripBody({ dateEnd: '15-05-2026' }))).toEqual(['DATE_IN_FUTURE body.dateEnd']);
    expect(codes(dripBody({ dateStart: '31-12-2025', dateEnd: '01-01-2026' }))).toContain(
      'OUTSIDE_CAMPAIGN body.dateStart',
    );
  });

  it('checks every code in its catalogue, good practices in the "Riego" scope only, and the idcp', () => {
    expect(
      codes(
        dripBody({
          idcp: ['102', '999'],
          system: { type: 'TypeIrrigationSystem', id: '9', name: '' },
          waterOrigins: [{ type: 'TypeWaterOrigin', id: '7', name: '' }],
          energy: { type: 'TypeEnergy', id: '12', name: '' },
          // 7 is a "Fertilización" practice only; 21 (Anexo IX) is a "Riego" one.
          goodPractices: [
            { type: 'TypeGoodPractice', id: '21', name: '' },
            { type: 'TypeGoodPractice', id: '7', name: '' },
          ],
        }),
      ),
    ).toEqual([
      'IDCP_NOT_FOUND body.idcp[1]',
      'UNKNOWN_SIEX_CODE body.system.id',
      'UNKNOWN_SIEX_CODE body.waterOrigins[0].id',
      'UNKNOWN_SIEX_CODE body.energy.id',
      'UNKNOWN_SIEX_CODE body.goodPractices[1].id',
    ]);
    expect(codes(dripBody({ energy: { type: 'TypeEnergy', id: '11', name: '' } }))).toEqual([]);
    expect(codes(dripBody({ measure: { ...WATER_UNITS.m3PerHa, symbol: 'm3' } }))).toEqual([
      'MEASURE_MISMATCH body.measure.symbol',
    ]);
  });

  it('takes the water as a volume or a volume per area, and nothing else', () => {
    for (const unit of [WATER_UNITS.m3, WATER_UNITS.litres, WATER_UNITS.m3PerHa, WATER_UNITS.litresPerM2])
      expect(codes(dripBody({ measure: unit }))).toEqual([]);
    expect(codes(dripBody({ measure: WATER_UNITS.kg }))).toEqual(['IRRIGATION_UNIT body.measure.code']);
    expect(codes(dripBody({ measure: { type: 'Measure', name: 'kg/ha', symbol: 'kg/ha', code: 17 } }))).toEqual([
      'IRRIGATION_UNIT body.measure.code',
    ]);
  });

  it('states its water in m3, of the whole or per hectare, in its view', () => {
    expect(recordOf(dripBody()).water).toEqual({ m3: 35, perHa: true });
    expect(recordOf(dripBody({ quantity: 4, measure: WATER_UNITS.litresPerM2 })).water).toEqual({
      m3: 40,
      perHa: true,
    });
    expect(recordOf(dripBody({ quantity: 1500, measure: WATER_UNITS.litres })).water).toEqual({
      m3: 1.5,
      perHa: false,
    });
    const record = recordOf(dripBody(), 12);
    expect(record).toMatchObject({ id: 'urn:ngsi-ld:AgriIrrigation:12', dateCreated: '14-05-2026 18:00:00' });
    expect(irrigationRecordSchema.strict().parse(record)).toEqual(record);
    expect(kind.upgrade(record, kind.format)).toBe(record);
  });

  it('writes every field of Riego, each in its form, valid against schema 3.11.4 and the descriptor', () => {
    expect([kind.cue.section, kind.cue.idAjena]).toEqual(['Riego', 'IdAjenaRiego']);
    const blocks = [
      ...blocksOf(dripBody({ idcp: ['101', '201'] })).map((b, k) => ({ IdAjenaRiego: 11 + k, ...b.body })),
      { IdAjenaRiego: 13, ...blocksOf(dripBody({ meter: undefined, energy: undefined }))[0].body, Borrar: true },
    ];
    const doc = cueDocument(farm, { Riego: blocks });
    expect(descriptorProblems({ ...ENVELOPE_FIELDS, ...kind.cue.fields }, doc)).toEqual([]);
    const validate = cueValidator();
    expect(validate(doc) ? [] : validate.errors).toEqual([]);
    expect(blocks[0]).toEqual({
      IdAjenaRiego: 11,
      FechaInicio: '13/05/2026',
      FechaFin: '14/05/2026',
      SistemaRiego: 6,
      UnidadMedida: 3,
      OrigenAgua: [{ IdOrigenAgua: 2 }],
      TipoEnergia: 4,
      NumContador: 'CNT-0457',
      BuenasPracticasRiego: [{ TipoBPR: 21 }],
      // 35 m3/ha on the vine's 2.35 ha.
      Cantidad: 82.25,
      DGCs: [{ CodigoDGC: 4600000101, CodigoCultivo: 102, Superficie: 2.35 }],
    });
    // The olive's 4.12 ha, its own block.
    expect(blocks[1]).toMatchObject({ Cantidad: 144.2, DGCs: [{ CodigoCultivo: 101, Superficie: 4.12 }] });
  });

  it('sends a total: per hectare times each block’s area, or the whole shared by area, in hundredths of a m3', () => {
    const cantidad = (body: Record<string, unknown>) => blocksOf(body).map((b) => b.body.Cantidad);
    // 1,000 m3 on vine 2.35 + 1.10 ha and olive 4.12 ha: 3.45 / 7.57 and 4.12 / 7.57 of it.
    expect(cantidad(dripBody({ idcp: ['101', '102', '201'], quantity: 1000, measure: WATER_UNITS.m3 }))).toEqual([
      455.75, 544.25,
    ]);
    // 2,000 L of the whole on one crop: 2 m3.
    expect(cantidad(dripBody({ quantity: 2000, measure: WATER_UNITS.litres }))).toEqual([2]);
    // 3 L/m2 on 1.10 ha: 30 m3/ha × 1.10.
    expect(cantidad(dripBody({ quantity: 3, measure: WATER_UNITS.litresPerM2 }))).toEqual([33]);
    // The least Cantidad is 0.01 m3: 5 L rounds to it, 4 L to 0 and is not sent.
    expect(cantidad(dripBody({ quantity: 5, measure: WATER_UNITS.litres }))).toEqual([0.01]);
    expect(kind.cue.map(recordOf(dripBody({ quantity: 4, measure: WATER_UNITS.litres })), farm)).toEqual({
      ok: false,
      missing: ["the water on a crop's locations rounds to 0 m3, below the 0.01 m3 Cantidad writes (number(8,2))"],
    });
  });

  it('says what SIEX needs that the record lacks: a DGC, the farm REA', () => {
    const doc = fertilizationFarm().doc;
    doc.meta.codigoRea = '';
    doc.idcps = doc.idcps.map((e) => (e.idcp === 102 ? { ...e, dgc: undefined } : e));
    expect(kind.cue.map(recordOf(dripBody()), new FarmIndex(doc))).toEqual({
      ok: false,
      missing: [
        'the farm has no 14-character REA code (CodigoRea)',
        'enclosure of idcp 102 has no DGC code (CodigoDGC)',
      ],
    });
    expect(kind.answer(recordOf(dripBody()), new FarmIndex(doc), null)).toMatchObject({ exportable: false });
    expect(kind.answer(recordOf(dripBody()), farm, null)).toMatchObject({ exportable: true, exportBlockers: [] });
  });
});
