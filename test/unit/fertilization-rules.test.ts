import { FarmIndex } from '../../shared/farms/farm-index';
import { fertilizeRequestSchema } from '../../shared/fertilization/wire';
import { fertilizationOf, requestOf } from '../../shared/fertilization/wire-mapper';
import {
  manureLimitRules,
  manureRowKey,
  manureRowKeys,
  ManureNitrogenRow,
  updatedManureRows,
} from '../../shared/fertilization/manure-nitrogen';
import { nitrogenPerHa } from '../../shared/fertilization/nitrogen';
import { judgeFertilization } from '../../shared/fertilization/rules';
import {
  fertilization,
  fertilizationContext,
  fertilizationFarm,
  manureBody,
  mineralBody,
  slurryBody,
} from '../helpers/fertilization-fixtures';
import { madrid, testSiexCodes } from '../helpers/phyto-fixtures';

const codesOf = (body: Record<string, unknown>, o = {}) =>
  judgeFertilization(fertilizationContext(body, o)).violations.map((v) => `${v.code} ${v.path}`);
const units = () => testSiexCodes().units;

describe('fertilization: the wire body and the domain value', () => {
  it.each([
    ['mineral', mineralBody()],
    ['slurry', slurryBody()],
    ['manure', manureBody()],
  ])('maps a %s request to the domain and back unchanged', (_, body) => {
    const parsed = fertilizeRequestSchema.parse(body);
    expect(requestOf(fertilizationOf(parsed))).toEqual(parsed);
  });

  it('keeps dateEnd, fertigation, a machine and the names given through the round trip', () => {
    const parsed = fertilizeRequestSchema.parse(
      mineralBody({
        dateEnd: '15-05-2026',
        surface: '0.8',
        fertigation: {
          system: { type: 'TypeIrrigationSystem', id: '6', name: 'Goteo' },
          waterOrigins: [{ type: 'TypeWaterOrigin', id: '2', name: 'Subterránea' }],
          quantity: 120,
          measure: { type: 'Measure', name: 'm3/ha', symbol: 'm3/ha', code: 19 },
          nDose: 20,
          nMeasure: { type: 'Measure', name: 'kg/ha', symbol: 'kg/ha', code: 17 },
          pDose: 5,
          pMeasure: { type: 'Measure', name: 'kg/ha', symbol: 'kg/ha', code: 17 },
        },
        machine: [{ type: 'Machine', id: '060303021', name: 'Abonadora', roma: 'R-1', ref: '' }],
        detail: 'antes de lluvia',
      }),
    );
    const f = fertilizationOf(parsed);
    expect(f).toMatchObject({ start: '2026-05-14', end: '2026-05-15', surface: '0.8' });
    expect(requestOf(f)).toEqual(parsed);
  });

  it('refuses a supplier given by two identifiers, and a last day before the first', () => {
    const r = fertilizeRequestSchema.safeParse(
      slurryBody({
        dateEnd: '13-05-2026',
        material: { ...(slurryBody().material as object), supplier: { rega: 'ES1', nif: 'B12345678' } },
      }),
    );
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path.join('.')).sort()).toEqual(['dateEnd', 'material.supplier']);
  });
});

describe('fertilization rules', () => {
  it('accepts the three fertilizations of the issue as built', () => {
    expect(codesOf(mineralBody())).toEqual([]);
    expect(codesOf(slurryBody())).toEqual([]);
    expect(codesOf(manureBody())).toEqual([]);
  });

  it("judges by days: a last day after today fails; the campaign is the first day's", () => {
    expect(codesOf(mineralBody({ dateEnd: '15-05-2026' }))).toEqual(['DATE_IN_FUTURE body.dateEnd']);
    expect(codesOf(mineralBody({ dateStart: '31-12-2025' }), { now: madrid('02-01-2026 09:00:00') })).toEqual([
      'OUTSIDE_CAMPAIGN body.dateStart',
    ]);
  });

  describe("RD 1051/2022's month to register it (art. 4.1), not the treatments' 7 days", () => {
    const on = (dateStart: string, now: string) =>
      codesOf(mineralBody({ dateStart }), { now: madrid(`${now} 18:00:00`) });

    it('the same date a month back passes, the day before fails, naming the window and its source', () => {
      expect(on('06-05-2026', '14-05-2026')).toEqual([]); // 8 days: what the treatments' window refuses
      expect(on('14-04-2026', '14-05-2026')).toEqual([]);
      expect(on('13-04-2026', '14-05-2026')).toEqual(['DATE_TOO_OLD body.dateStart']);
      const [v] = judgeFertilization(
        fertilizationContext(mineralBody({ dateStart: '13-04-2026' }), { now: madrid('14-05-2026 18:00:00') }),
      ).violations;
      expect(v?.message).toBe(
        'applications may be registered at most one month (RD 1051/2022, art. 4.1) after they took place',
      );
    });

    it("runs date to date, and to the month's last day when it has no such date (Código Civil, art. 5.1)", () => {
      expect(on('31-03-2026', '30-04-2026')).toEqual([]);
      expect(on('30-03-2026', '30-04-2026')).toEqual([]);
      expect(on('29-03-2026', '30-04-2026')).toEqual(['DATE_TOO_OLD body.dateStart']);
      expect(on('31-01-2026', '28-02-2026')).toEqual([]);
      expect(on('31-01-2026', '01-03-2026')).toEqual(['DATE_TOO_OLD body.dateStart']);
      expect(on('01-02-2026', '01-03-2026')).toEqual([]);
      // Counted forward from the application, not back from today: 30 March less a month would be 28 February.
      expect(on('28-02-2026', '28-03-2026')).toEqual([]);
      expect(on('28-02-2026', '29-03-2026')).toEqual(['DATE_TOO_OLD body.dateStart']);
      expect(on('28-02-2026', '30-03-2026')).toEqual(['DATE_TOO_OLD body.dateStart']);
    });

    it('counts calendar days across both summer-time changes (29-03-2026, 25-10-2026)', () => {
      expect(on('26-03-2026', '26-04-2026')).toEqual([]);
      expect(on('25-03-2026', '26-04-2026')).toEqual(['DATE_TOO_OLD body.dateStart']);
      expect(on('20-10-2026', '20-11-2026')).toEqual([]);
      expect(on('19-10-2026', '20-11-2026')).toEqual(['DATE_TOO_OLD body.dateStart']);
    });

    it('whatever MAX_BACKDATE_DAYS says, and an amendment keeping its date has no window at all', () => {
      expect(codesOf(mineralBody({ dateStart: '01-02-2026' }), { window: null })).toEqual([]);
    });
  });

  it('refuses unknown crop locations and an area above theirs', () => {
    expect(codesOf(mineralBody({ idcp: ['999'] }))).toEqual(['IDCP_NOT_FOUND body.idcp[0]']);
    expect(codesOf(mineralBody({ surface: '1.2' }))).toEqual(['TREATED_AREA_INVALID body.surface']);
    expect(codesOf(mineralBody({ surface: '1.1' }))).toEqual([]);
  });

  it('checks every code in its catalogue, good practices in the fertilization scope only', () => {
    const v = judgeFertilization(
      fertilizationContext(
        mineralBody({
          kind: { type: 'TypeFertilization', id: '9', name: '' },
          method: { type: 'TypeFertilizationMethod', id: '8', name: '' },
          // 21 (irrigation doses) and 23 (drip irrigation) are irrigation's good practices, not fertilization's.
          goodPractices: [
            { type: 'TypeGoodPractice', id: '15', name: '' },
            { type: 'TypeGoodPractice', id: '21', name: '' },
          ],
          measure: { type: 'Measure', name: 'kg/ha', symbol: 'L/ha', code: 17 },
        }),
      ),
    ).violations;
    expect(v.map((x) => `${x.code} ${x.path}`)).toEqual([
      'UNKNOWN_SIEX_CODE body.kind.id',
      'UNKNOWN_SIEX_CODE body.method.id',
      'MEASURE_MISMATCH body.measure.symbol',
      'UNKNOWN_SIEX_CODE body.goodPractices[1].id',
    ]);
    expect(v[3].message).toContain('BUENAS_PRACTICAS_AMBITOS (scope Fertilización)');
  });

  describe("MAT_FERTI's data", () => {
    const material = (o: Record<string, unknown>, base = manureBody()) => ({
      ...base,
      material: { ...(base.material as object), ...o },
    });

    it('names the nutrient, supplier and treatment a manure lacks', () => {
      const v = judgeFertilization(
        fertilizationContext(
          material({ nutrients: [{ id: '1', percent: 0.5 }], supplier: undefined, treatment: undefined }),
        ),
      ).violations;
      expect(v.map((x) => `${x.code} ${x.path}`)).toEqual([
        'MATERIAL_DATA_MISSING body.material.nutrients',
        'MATERIAL_DATA_MISSING body.material.nutrients',
        'MATERIAL_DATA_MISSING body.material.nutrients',
        'MATERIAL_DATA_MISSING body.material.supplier',
        'MATERIAL_DATA_MISSING body.material.treatment',
      ]);
      expect(v.map((x) => x.message).join(' | ')).toMatch(/N orgánico.*P2O5 total.*K2O/);
    });

    it('refuses a supplier or a treatment the material does not take', () => {
      expect(codesOf(material({ supplier: { nima: '4600012345' } }))).toEqual([
        'MATERIAL_DATA_MISSING body.material.supplier.nima',
      ]);
      // Solid cattle manure is not the liquid fraction of a separation.
      expect(codesOf(material({ treatment: { type: 'TypeManureTreatment', id: '3', name: '' } }))).toEqual([
        'MATERIAL_DATA_MISSING body.material.treatment.id',
      ]);
      expect(codesOf(material({ supplier: { nif: 'B12345678' } }, mineralBody()))).toEqual([
        'MATERIAL_DATA_MISSING body.material.supplier',
      ]);
    });

    it('asks a label material for at least one nutrient, a named one for its name, sludge for its metals', () => {
      expect(codesOf(material({ nutrients: [{ id: '10', percent: 60 }] }, mineralBody()))).toEqual([]);
      expect(codesOf(material({ nutrients: [] }, mineralBody()))).toEqual([
        'MATERIAL_DATA_MISSING body.material.nutrients',
      ]);
      expect(codesOf(material({ id: '11', nutrients: [] }, mineralBody()))).toEqual([
        'MATERIAL_DATA_MISSING body.material.productName',
      ]);
      expect(codesOf(material({ id: '11', nutrients: [], productName: 'Algaenzims' }, mineralBody()))).toEqual([]);
      const sludge = material(
        {
          id: '22',
          nutrients: ['1', '2', '6', '11'].map((id) => ({ id, percent: 1 })),
          supplier: { nima: '4600012345' },
          treatment: undefined,
        },
        mineralBody(),
      );
      expect(codesOf(sludge)).toEqual(['MATERIAL_DATA_MISSING body.material.heavyMetals']);
    });
  });

  describe('nitrogen per hectare', () => {
    it('is the dose per hectare times N total, through the density for a volume', () => {
      expect(nitrogenPerHa(fertilization(mineralBody()), units()).kgPerHa).toBeCloseTo(81, 9);
      expect(nitrogenPerHa(fertilization(slurryBody()), units()).kgPerHa).toBeCloseTo(157.5, 9);
      expect(nitrogenPerHa(fertilization(manureBody(34)), units()).kgPerHa).toBeCloseTo(170, 9);
    });

    it('asks a volume of a material with nitrogen for its density, and refuses a dose not per area', () => {
      const noDensity = slurryBody();
      delete (noDensity.material as Record<string, unknown>).density;
      expect(codesOf(noDensity)).toEqual(['MATERIAL_DATA_MISSING body.material.density']);
      expect(codesOf(mineralBody({ measure: { type: 'Measure', name: 'kg/L', symbol: 'kg/L', code: 12 } }))).toEqual([
        'FERTILIZER_DOSE_UNIT body.measure.code',
      ]);
    });
  });

  describe('slurry (RD 1051/2022)', () => {
    const broadcast = { type: 'TypeFertilizationMethod', id: '1', name: '' };
    it('refuses broadcast spreading without an accepted practice, names the decree', () => {
      const v = judgeFertilization(
        fertilizationContext(slurryBody({ method: broadcast, goodPractices: [] })),
      ).violations;
      expect(v.map((x) => `${x.code} ${x.path}`)).toEqual(['SLURRY_METHOD_NOT_ALLOWED body.method.id']);
      expect(v[0].message).toContain('needs a good practice RD 1051/2022 accepts');
      // A practice of fertilization that is not one of the accepted techniques does not do.
      expect(
        codesOf(slurryBody({ method: broadcast, goodPractices: [{ type: 'TypeGoodPractice', id: '7' }] })),
      ).toEqual(['SLURRY_METHOD_NOT_ALLOWED body.method.id']);
    });

    it('accepts bands, injection or burial within 4 hours, a localised method, and the solid fraction', () => {
      for (const id of ['1', '2', '3', '8', '15'])
        expect(codesOf(slurryBody({ method: broadcast, goodPractices: [{ type: 'TypeGoodPractice', id }] }))).toEqual(
          [],
        );
      expect(
        codesOf(slurryBody({ method: { type: 'TypeFertilizationMethod', id: '3', name: '' }, goodPractices: [] })),
      ).toEqual([]);
      const solid = slurryBody({ method: broadcast, goodPractices: [] });
      (solid.material as Record<string, unknown>).treatment = { type: 'TypeManureTreatment', id: '2', name: '' };
      expect(codesOf(solid)).toEqual([]);
    });
  });

  describe("every quantity within what its CUE field holds (FEGA's field descriptor)", () => {
    it('takes a dose of 99999.999 and refuses 100000 and 1e13, stating the limit', () => {
      expect(codesOf(mineralBody({ dose: 99999.999 }))).toEqual([]);
      expect(codesOf(mineralBody({ dose: 100000 }))).toEqual(['QUANTITY_OUT_OF_BOUNDS body.dose']);
      const [v] = judgeFertilization(fertilizationContext(mineralBody({ dose: 1e13 }))).violations;
      expect(v.message).toBe(
        "10000000000000 kg/ha is more than 99999.999, the most SIEX's Dosis holds (number(8,3), FEGA's CUE field descriptor)",
      );
    });

    it("holds the fertigation's water to number(8,2) and its N and P doses to number(8,3)", () => {
      const kg = { type: 'Measure', name: 'kg/ha', symbol: 'kg/ha', code: 17 };
      const fertigation = (quantity: number, nDose: number, pDose: number) => ({
        system: { type: 'TypeIrrigationSystem', id: '6', name: 'Goteo' },
        waterOrigins: [],
        quantity,
        measure: { type: 'Measure', name: 'm3/ha', symbol: 'm3/ha', code: 19 },
        nDose,
        nMeasure: kg,
        pDose,
        pMeasure: kg,
      });
      expect(codesOf(mineralBody({ fertigation: fertigation(999999.99, 99999.999, 99999.999) }))).toEqual([]);
      expect(codesOf(mineralBody({ fertigation: fertigation(1000000, 100000, 100000) }))).toEqual([
        'QUANTITY_OUT_OF_BOUNDS body.fertigation.quantity',
        'QUANTITY_OUT_OF_BOUNDS body.fertigation.nDose',
        'QUANTITY_OUT_OF_BOUNDS body.fertigation.pDose',
      ]);
    });
  });

  describe('the sludge flag follows the material (RD 1310/1990, the CUE AplicacionLodos)', () => {
    // Treated sewage sludge, MAT_FERTI 22, with the data its "Campos a registrar" asks.
    const sewageSludge = (o: Record<string, unknown> = {}) =>
      mineralBody({
        material: {
          type: 'TypeFertilizerMaterial',
          id: '22',
          name: 'Lodos EDAR',
          nutrients: [
            { id: '1', percent: 4 },
            { id: '2', percent: 3 },
            { id: '6', percent: 2 },
            { id: '11', percent: 30 },
          ],
          heavyMetals: [{ id: '1', percent: 0.0001 }],
          supplier: { nima: '4600012345', name: 'EDAR Pinedo' },
        },
        dose: 5,
        measure: { type: 'Measure', name: 't/ha', symbol: 't/ha', code: 29 },
        ...o,
      });

    it('takes sewage sludge with the flag true or left out, and refuses it sent as "not sludge"', () => {
      expect(codesOf(sewageSludge())).toEqual([]);
      expect(codesOf(sewageSludge({ sludge: true }))).toEqual([]);
      expect(fertilization(sewageSludge()).sludge).toBe(true);
      expect(codesOf(sewageSludge({ sludge: false }))).toEqual(['SLUDGE_FLAG_MISMATCH body.sludge']);
    });

    it('refuses a fertilizer sent as sludge, and takes it with the flag false or left out', () => {
      expect(codesOf(mineralBody())).toEqual([]);
      expect(codesOf(mineralBody({ sludge: false }))).toEqual([]);
      expect(fertilization(mineralBody()).sludge).toBe(false);
      const [v] = judgeFertilization(fertilizationContext(mineralBody({ sludge: true }))).violations;
      expect(`${v.code} ${v.path}`).toBe('SLUDGE_FLAG_MISMATCH body.sludge');
      expect(v.message).toContain('only MAT_FERTI 22 (RD 1310/1990) is');
    });
  });

  describe('170 kg N/ha of livestock manure on a nitrate-vulnerable enclosure (Directive 91/676/EEC, RD 47/2022)', () => {
    const farm = fertilizationFarm();
    const row = (kg: number, year = '2026'): ReadonlyMap<string, ManureNitrogenRow> => {
      const key = manureRowKeys(farm, fertilization(manureBody()))[0];
      return new Map([[key, { campaigns: { [year]: Math.round(kg * 1000) } }]]);
    };

    it('holds at 170 and fails at 170.01, naming the total and the limit', () => {
      expect(codesOf(manureBody(34))).toEqual([]);
      const v = judgeFertilization(fertilizationContext(manureBody(34.002))).violations;
      expect(v.map((x) => `${x.code} ${x.path}`)).toEqual(['NITROGEN_LIMIT_EXCEEDED body.idcp[0]']);
      expect(v[0].message).toContain('would total 170.01 kg N/ha in the 2026 campaign');
      expect(v[0].message).toContain('the limit is 170 kg N/ha');
    });

    it('counts the campaign whatever the order: a back-dated record meets the later ones in the row', () => {
      // 100 kg already applied this campaign, some of it later than the record (the row is the campaign's total).
      expect(codesOf(manureBody(14, { dateStart: '08-05-2026' }), { history: row(100) })).toEqual([]);
      expect(codesOf(manureBody(14.0002, { dateStart: '08-05-2026' }), { history: row(100) })).toEqual([
        'NITROGEN_LIMIT_EXCEEDED body.idcp[0]',
      ]);
      // Another campaign's manure does not count.
      expect(codesOf(manureBody(34), { history: row(170, '2025') })).toEqual([]);
    });

    it('does not limit an enclosure outside a vulnerable zone, nor what is not livestock manure', () => {
      expect(codesOf(manureBody(60, { idcp: ['102'] }))).toEqual([]);
      expect(codesOf(mineralBody({ idcp: ['101'], dose: 1000 }), { history: row(170) })).toEqual([]);
    });

    it('an amendment does not count its own old version against itself', () => {
      const own = fertilization(manureBody(34));
      expect(codesOf(manureBody(34), { history: row(170), own })).toEqual([]);
      expect(codesOf(manureBody(34.002), { history: row(170), own })).toEqual(['NITROGEN_LIMIT_EXCEEDED body.idcp[0]']);
    });

    it('keeps the rows: added, moved by an amendment, taken off by a deletion, three campaigns', () => {
      const add = (kg: number, body = manureBody(kg / 5)) => ({ fertilization: fertilization(body), kgPerHa: kg });
      const key = manureRowKey(farm.byIdcp.get(101)!);
      const after = updatedManureRows(new Map(), farm, null, add(100));
      expect(after.get(key)).toEqual({ campaigns: { '2026': 100000 } });
      const amended = updatedManureRows(after, farm, add(100), add(120));
      expect(amended.get(key)).toEqual({ campaigns: { '2026': 120000 } });
      expect(updatedManureRows(amended, farm, add(120), null).get(key)).toEqual({ campaigns: { '2026': 0 } });
      const old = new Map([[key, { campaigns: { '2023': 1, '2024': 2, '2025': 3 } }]]);
      expect(updatedManureRows(old, farm, null, add(1)).get(key)).toEqual({
        campaigns: { '2024': 2, '2025': 3, '2026': 1000 },
      });
      expect(manureRowKeys(farm, fertilization(mineralBody()))).toEqual([]);
      expect(
        updatedManureRows(new Map(), farm, null, { fertilization: fertilization(mineralBody()), kgPerHa: 81 }).size,
      ).toBe(0);
    });

    it('counts an enclosure named under two crops once', () => {
      const twoCrops = fertilizationFarm({ idcp: 401, crop: 1, sameEnclosureAs: 101 });
      const f = fertilization(manureBody(14, { idcp: ['101', '401'] }));
      expect(manureRowKeys(twoCrops, f)).toHaveLength(1);
      const rows = updatedManureRows(new Map(), twoCrops, null, { fertilization: f, kgPerHa: 70 });
      expect([...rows.values()]).toEqual([{ campaigns: { '2026': 70000 } }]);
      expect(manureLimitRules(twoCrops, row(100), { fertilization: f, kgPerHa: 70 }, null)).toEqual([]);
      expect(manureLimitRules(twoCrops, row(100), { fertilization: f, kgPerHa: 70.01 }, null)).toHaveLength(1);
    });

    describe('per hectare of the enclosure: crops sharing it and partial surfaces (issue 35)', () => {
      // The issue's case: a vulnerable enclosure of 2.35 ha, TEMPRANILLO declared on 1.60 ha and BOBAL on 0.75 ha.
      const doc = fertilizationFarm().doc;
      const vine = doc.idcps.find((e) => e.idcp === 101)!;
      const shared = new FarmIndex({
        ...doc,
        crops: [...doc.crops, { cropId: 14, typecropId: '102', typecropName: 'VIÑA', code: 1002, name: 'BOBAL' }],
        idcps: [
          ...doc.idcps.map((e) => (e.idcp === 101 ? { ...e, area: '1.60' } : e)),
          { ...vine, idcp: 401, crop: 3, area: '0.75' },
        ],
      });
      const key = manureRowKey(vine);
      const on = (idcp: string[], kgPerHa: number, o: Record<string, unknown> = {}) => ({
        fertilization: fertilization(manureBody(5, { idcp, ...o })),
        kgPerHa,
      });
      const tempranillo = updatedManureRows(new Map(), shared, null, on(['101'], 100));

      it('charges each record the hectares it covered: 100 on 1.60 ha and 71 on 0.75 ha are 90.745 kg N/ha, not 171', () => {
        // 100 × 1.60 / 2.35 = 68.085 kg N/ha of the enclosure; 71 × 0.75 / 2.35 = 22.660.
        expect(tempranillo.get(key)).toEqual({ campaigns: { '2026': 68085 } });
        expect(manureLimitRules(shared, tempranillo, on(['401'], 71), null)).toEqual([]);
        expect(updatedManureRows(tempranillo, shared, null, on(['401'], 71)).get(key)).toEqual({
          campaigns: { '2026': 90745 },
        });
      });

      it('holds the enclosure at 170 kg N/ha: a record on both crops covers it whole', () => {
        expect(manureLimitRules(shared, tempranillo, on(['101', '401'], 101.915), null)).toEqual([]);
        const [v] = manureLimitRules(shared, tempranillo, on(['101', '401'], 101.916), null);
        expect(`${v.code} ${v.path}`).toBe('NITROGEN_LIMIT_EXCEEDED body.idcp[0]');
        expect(v.message).toContain('SIGPAC enclosure 46-213-0-0-12-45-1 (2.35 ha, nitrate-vulnerable)');
        expect(v.message).toContain('would total 170.001 kg N/ha in the 2026 campaign (399.502 kg N;');
        expect(v.message).toContain('the limit is 170 kg N/ha of the enclosure');
      });

      it('charges a partial surface its share: 1.175 ha of the enclosure takes half the rate', () => {
        expect(manureLimitRules(shared, new Map(), on(['101', '401'], 340, { surface: '1.175' }), null)).toEqual([]);
        expect(
          manureLimitRules(shared, new Map(), on(['101', '401'], 340.01, { surface: '1.175' }), null),
        ).toHaveLength(1);
        // Half of what a whole enclosure would be charged, and taken off the same way by an amendment or deletion.
        const half = on(['101', '401'], 100, { surface: '1.175' });
        const rows = updatedManureRows(new Map(), shared, null, half);
        expect(rows.get(key)).toEqual({ campaigns: { '2026': 50000 } });
        expect(updatedManureRows(rows, shared, half, null).get(key)).toEqual({ campaigns: { '2026': 0 } });
      });

      it('an amendment takes off what its old version charged this enclosure, not its rate', () => {
        const old = on(['101'], 100);
        expect(manureLimitRules(shared, tempranillo, on(['101', '401'], 170), old)).toEqual([]);
        expect(manureLimitRules(shared, tempranillo, on(['101', '401'], 170.001), old)).toHaveLength(1);
      });
    });
  });
});

describe("a fertilizer's commercial product (issue 35 item 4, DETALLE_MATERIAL_FERT)", () => {
  const withMaterial = (material: Record<string, unknown>) => {
    const body = mineralBody();
    Object.assign(body.material as Record<string, unknown>, material);
    return body;
  };
  const detail = (id: string) => ({ type: 'TypeFertilizerDetail', id, name: '' });

  it("refuses a product of another material, and a code the catalogue does not have, at the detail's path", () => {
    // 551 "Lodo de depuradora" is sewage sludge's (MAT_FERTI 22), not a mineral fertilizer's (14).
    expect(codesOf(withMaterial({ detail: detail('551') }))).toEqual([
      'DETAIL_NOT_OF_MATERIAL body.material.detail.id',
    ]);
    expect(codesOf(withMaterial({ detail: detail('999999') }))).toEqual(['UNKNOWN_SIEX_CODE body.material.detail.id']);
    expect(codesOf(withMaterial({ detail: detail('1') }))).toEqual([]);
  });

  it('is the one the request names, else the one product of its material its product name gives, else none', () => {
    const resolved = (material: Record<string, unknown>) =>
      judgeFertilization(fertilizationContext(withMaterial(material))).resolution.detail;
    expect(resolved({ productName: 'ácido nítrico (15-00-00)' })).toEqual({
      code: 1,
      name: 'ÁCIDO NÍTRICO (15-00-00) de GENÉRICO',
    });
    expect(resolved({ productName: 'ácido nítrico (15-00-00)', detail: detail('2') })?.code).toBe(2);
    // Shared by many formulations of the material: none is guessed.
    expect(resolved({ productName: 'RHIZOVIT EXCELIS' })).toBeNull();
    expect(resolved({})).toBeNull();
  });
});
