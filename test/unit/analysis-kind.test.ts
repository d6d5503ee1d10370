import { analysisKind } from '../../shared/analysis/analysis-kind';
import { analysisRecordSchema } from '../../shared/analysis/wire';
import { isValidEntityNif, isValidNif } from '../../shared/domain/nif';
import { FarmIndex } from '../../shared/farms/farm-index';
import { descriptorProblems, ENVELOPE_FIELDS } from '../../shared/siex/cue-descriptor';
import { cueDocument } from '../../shared/siex/cue-mapping';
import { cueValidator } from '../helpers/cue-schema';
import { fertilizationFarm } from '../helpers/fertilization-fixtures';
import { madrid, testSiexCodes } from '../helpers/phyto-fixtures';

/**
 * Issue 35, item 2: the analysis (`AgriAnalysis`, CUE `Analitica`, RD 1051/2022 arts. 5.b and 6) through the records
 * core's port: mapped, judged, viewed, and its block valid against schema 3.11.4 and the descriptor table. Each rule
 * at its boundary.
 */
type Body = Record<string, unknown>;
const soilBody = (o: Body = {}): Body => ({
  type: 'AgriAnalysis',
  date: '12-05-2026',
  idcp: ['101', '201'],
  material: { type: 'TypeAnalyzedMaterial', id: '3', name: 'Suelo' },
  analyses: [{ type: 'TypeAnalysis', id: '5', name: '' }],
  laboratory: { name: 'Laboratorio Agrario de Levante', nif: 'B12345674' },
  report: 'LAB-2026/0412',
  soil: {
    organicMatter: 1.8,
    sand: 42,
    silt: 35,
    clay: 23,
    ph: 8.1,
    phosphorus: 18,
    potassium: 240,
    nitrogen: 0.11,
    conductivity: 0.4,
  },
  ...o,
});
const residueBody = (o: Body = {}): Body => ({
  type: 'AgriAnalysis',
  date: '12-05-2026',
  idcp: ['102'],
  material: { type: 'TypeAnalyzedMaterial', id: '2', name: 'Producto cosechado' },
  analyses: [{ type: 'TypeAnalysis', id: '1', name: '' }],
  substances: [{ id: '2', name: 'ACETAMIPRID' }],
  ...o,
});
const waterBody = (o: Body = {}): Body => ({
  type: 'AgriAnalysis',
  date: '12-05-2026',
  material: { type: 'TypeAnalyzedMaterial', id: '4', name: 'Agua de riego' },
  analyses: [{ type: 'TypeAnalysis', id: '4', name: '' }],
  ...o,
});

describe('the analysis record kind', () => {
  const kind = analysisKind;
  const reference = { products: new Map(), applicators: new Map(), codes: testSiexCodes() };
  const farm = fertilizationFarm();
  const now = madrid('14-05-2026 18:00:00');
  const judge = (body: Body) => {
    const request = kind.toRequest(body);
    return kind.judge({
      request,
      appliedAt: kind.appliedAt(request),
      now,
      window: kind.recordingWindow({ MAX_BACKDATE_DAYS: 7 }),
      farm,
      history: new Map(),
      own: null,
      reference,
    });
  };
  const codes = (body: Body) => judge(body).violations.map((v) => `${v.code} ${v.path}`);
  const parsed = (body: Body) => {
    const r = kind.wire.request.safeParse(body);
    return r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
  };
  const recordOf = (body: Body, id = 7) =>
    kind.view({ id, request: kind.toRequest(body), resolution: null, farm, exported: false, now });

  it('maps the wire body to its domain value and back', () => {
    for (const b of [soilBody(), residueBody(), waterBody()]) {
      const body = kind.wire.request.parse(b);
      expect(kind.toWire(kind.toRequest(body))).toEqual(body);
      expect(kind.fromStored(JSON.parse(JSON.stringify(kind.toStored(kind.toRequest(body)))))).toEqual(
        kind.toRequest(body),
      );
    }
    expect(kind.listValue(kind.toRequest(soilBody()))).toBe('3');
    expect(kind.blockKeys(farm, kind.toRequest(soilBody()))).toEqual(['analysis']);
  });

  it('takes soil figures within their ranges: pH 0 to 14, sand, silt and clay at most 100 together', () => {
    const soil = (o: Body) => soilBody({ soil: { ...(soilBody().soil as Body), ...o } });
    expect(parsed(soil({ ph: 0 }))).toEqual([]);
    expect(parsed(soil({ ph: 14 }))).toEqual([]);
    expect(parsed(soil({ ph: 14.01 }))).toEqual(['soil.ph']);
    expect(parsed(soil({ ph: -0.01 }))).toEqual(['soil.ph']);
    expect(parsed(soil({ sand: 50, silt: 30, clay: 20 }))).toEqual([]);
    expect(parsed(soil({ sand: 50, silt: 30, clay: 20.01 }))).toEqual(['soil']);
    expect(parsed(soil({ organicMatter: 100.01 }))).toEqual(['soil.organicMatter']);
    expect(parsed(soil({ potassium: -1 }))).toEqual(['soil.potassium']);
    expect(parsed(soilBody({ soil: { ph: 7 } }))).toEqual([]);
  });

  it('needs the locations sampled except for water, soil figures only on soil, substances only for residues', () => {
    expect(codes(soilBody())).toEqual([]);
    expect(codes(residueBody())).toEqual([]);
    expect(codes(waterBody())).toEqual([]);
    expect(codes(soilBody({ idcp: [] }))).toEqual(['REQUIRED body.idcp']);
    expect(codes(waterBody({ soil: { ph: 7 } }))).toEqual(['INVALID_VALUE body.soil']);
    expect(codes(residueBody({ analyses: [{ type: 'TypeAnalysis', id: '2', name: '' }] }))).toEqual([
      'INVALID_VALUE body.substances',
    ]);
    expect(
      codes(
        residueBody({
          idcp: ['999'],
          material: { type: 'TypeAnalyzedMaterial', id: '5', name: '' },
          substances: [{ id: '9999', name: '' }],
        }),
      ),
    ).toEqual([
      'IDCP_NOT_FOUND body.idcp[0]',
      'UNKNOWN_SIEX_CODE body.material.id',
      'UNKNOWN_SIEX_CODE body.substances[0].id',
    ]);
  });

  it("checks the laboratory's NIF as a company's or a person's, by its control character", () => {
    expect(codes(soilBody({ laboratory: { name: 'Lab', nif: 'B12345675' } }))).toEqual([
      'NIF_INVALID body.laboratory.nif',
    ]);
    expect(codes(soilBody({ laboratory: { name: 'Lab', nif: '12345678Z' } }))).toEqual([]);
    // A: control digit; Q (a public body): control letter; others either.
    expect([isValidEntityNif('A58818501'), isValidEntityNif('Q2818002D'), isValidEntityNif('Q28180024')]).toEqual([
      true,
      true,
      false,
    ]);
    expect([isValidNif('b-1234567-4'), isValidNif('B1234567'), isValidNif('X1234567L')]).toEqual([true, false, true]);
  });

  it("takes RD 1051/2022's month to register, and no day in the future", () => {
    expect(codes(waterBody({ date: '14-04-2026' }))).toEqual([]);
    expect(codes(waterBody({ date: '13-04-2026' }))).toEqual(['DATE_TOO_OLD body.date']);
    expect(codes(waterBody({ date: '15-05-2026' }))).toEqual(['DATE_IN_FUTURE body.date']);
  });

  it('writes every field of Analitica, each in its form, valid against schema 3.11.4 and the descriptor', () => {
    expect([kind.cue.section, kind.cue.idAjena]).toEqual(['Analitica', 'IdAjenaAna']);
    const blockOf = (body: Body) => {
      const mapped = kind.cue.map(recordOf(body), farm);
      if (!mapped.ok) throw new Error(mapped.missing.join('; '));
      return mapped.blocks[0].body;
    };
    const blocks = [
      { IdAjenaAna: 1, ...blockOf(soilBody()) },
      { IdAjenaAna: 2, ...blockOf(residueBody()) },
      { IdAjenaAna: 3, ...blockOf(waterBody()), Borrar: true },
    ];
    const doc = cueDocument(farm, { Analitica: blocks });
    expect(descriptorProblems({ ...ENVELOPE_FIELDS, ...kind.cue.fields }, doc)).toEqual([]);
    const validate = cueValidator();
    expect(validate(doc) ? [] : validate.errors).toEqual([]);
    expect(blocks[0]).toEqual({
      IdAjenaAna: 1,
      MaterialAnalizado: 3,
      Fecha: '12/05/2026',
      Laboratorio: 'Laboratorio Agrario de Levante',
      Nif: 'B12345674',
      NumBoletin: 'LAB-2026/0412',
      TiposAnalisis: [{ TipoAnalisis: 5 }],
      ParametrosSuelo: {
        MateriaOrganica: 1.8,
        Arena: 42,
        Limo: 35,
        Arcilla: 23,
        Ph: 8.1,
        FosforoAsimilable: 18,
        PotasioAsimilable: 240,
        NitrogenoTotal: 0.11,
        Conductividad: 0.4,
      },
      // One report, one block: the vine's and the olive's ground together.
      DGCs: [
        { CodigoDGC: 4600000101, CodigoCultivo: 102 },
        { CodigoDGC: 4600000201, CodigoCultivo: 101 },
      ],
    });
    expect(blocks[1]).toMatchObject({ TiposSustancias: [{ TipoSustancia: 2 }] });
    // A water analysis names no location, and sends no DGCs; a figure not given is not sent as 0.
    expect(blocks[2]).not.toHaveProperty('DGCs');
    expect(blockOf(soilBody({ soil: { ph: 7 } }))).toMatchObject({ ParametrosSuelo: { Ph: 7 } });
    expect(Object.keys(blockOf(soilBody({ soil: { ph: 7 } })).ParametrosSuelo as object)).toEqual(['Ph']);
  });

  it('answers its view, and says what SIEX needs that it lacks', () => {
    const record = recordOf(soilBody(), 12);
    expect(record).toMatchObject({ id: 'urn:ngsi-ld:AgriAnalysis:12', dateCreated: '14-05-2026 18:00:00' });
    expect(analysisRecordSchema.strict().parse(record)).toEqual(record);
    expect(kind.answer(record, farm, null)).toMatchObject({ exportable: true, exportBlockers: [] });
    const doc = fertilizationFarm().doc;
    doc.meta.codigoRea = '';
    expect(kind.cue.map(record, new FarmIndex(doc))).toEqual({
      ok: false,
      missing: ['the farm has no 14-character REA code (CodigoRea)'],
    });
  });
});
