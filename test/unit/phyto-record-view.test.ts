import { phytoRecordSchema } from '../../shared/phyto/wire-record';
import { PhytoRequest } from '../../shared/phyto/wire';
import { FarmIndex } from '../../shared/farms/farm-index';
import { buildRecord, registerNumber, seclimitOf } from '../../shared/phyto/record-view';
import { RECORD_FORMAT, upgradeRecord } from '../../shared/phyto/stored-record';
import { treatmentFromWire } from '../../shared/phyto/wire-mapper';
import { farmIndexDoc, madrid, microthiol, OLIVE, phytoRequest } from '../helpers/phyto-fixtures';
import { checkPhytoRecordShape, EXTRA_RECORD_FIELDS, SPEC_RECORD_FIELDS } from '../helpers/phyto-shapes';

/**
 * The stored record (spec: "Stored/returned record"): every field of the table present with its type, the product
 * code and dose echoed, the catalog's data in `subtype`, and neutral values for whatever the request did not supply.
 */
const farm = new FarmIndex(farmIndexDoc());
const now = madrid('15-05-2026 12:34:56');
const product = microthiol({ holder: { name: 'UPL IBERIA, S.A.', nif: 'A08000000' }, lastUse: '31-01-2028' });

function record(request: PhytoRequest, exported = false) {
  const entries = request.idcp.map((i) => farm.byIdcp.get(Number(i))!);
  const crops = new Set(entries.map((e) => farm.cropOf(e).typecropId));
  const uses = product.uses.filter((u) => u.cropTypeIds.some((c) => crops.has(c)));
  return buildRecord(4711, treatmentFromWire(request), product, { entries, uses }, farm, exported, now);
}

const full: PhytoRequest = phytoRequest({
  idcp: ['101', OLIVE],
  dose: 0.55,
  applicator: { user: { type: 'UserMetadata', nif: '23456789-d', ropo: 'ES-46001234' } },
  infection: { type: 'TypeInfection', kind: 'enfermedad', id: '148', name: 'Oídio de la vid' },
  tj: [{ type: 'TypeJustification', id: '2', name: 'Monitorización' }],
  efficacy: { type: 'TypeEfficacy', id: '1', name: 'Buena', detail: 'sin síntomas a los 10 días' },
  machine: [
    {
      type: 'Machine',
      id: '060303021',
      name: 'Pulverizador hidroneumático',
      roma: 'ROMA-123',
      inspection: '12-03-2025',
      ref: '',
    },
  ],
  manual: true,
  advisor: { type: 'UserMetadata', ropo: 'ES-46000777' },
  phenology: { type: 'TypePhenology', id: '7', name: 'Desarrollo del fruto' },
  detail: 'tratamiento de mañana',
  batch: 'L-2026-05',
  soup: '1000',
  dt: '5.5',
  mdt: { type: 'Measure', name: 'Kilogramos', symbol: 'kg', code: 5 },
  st: '6.47',
  mst: { type: 'Measure', name: 'Hectáreas', symbol: 'ha', code: 2 },
  surface: '6.47',
  preventive: '1',
  distributed: '1',
  reviewed: '1',
  pp: '0',
  speed: '6.5',
  recipe: 'REC-77',
});

describe('record view', () => {
  it("has every field of the spec's table (and the request's date and applicator), each with its type", () => {
    const r = record(full);
    expect(Object.keys(r).sort()).toEqual([...SPEC_RECORD_FIELDS, ...EXTRA_RECORD_FIELDS].sort());
    checkPhytoRecordShape(r);
    checkPhytoRecordShape(record(phytoRequest()));
    // and the response schema the OpenAPI document publishes accepts both, neutral values included
    expect(phytoRecordSchema.safeParse(r).error).toBeUndefined();
    expect(phytoRecordSchema.safeParse(record(phytoRequest())).error).toBeUndefined();
  });

  it('echoes the product code and dose (as text), the date and the locations', () => {
    const r = record(full);
    expect(r.id).toBe('urn:ngsi-ld:AgriPhytosanitary:4711');
    expect(r.subtype!.subtype.code).toBe('ES-11179');
    expect(r.dose).toBe('0.55');
    expect(r.dateApplication).toBe('14-05-2026 10:00:00');
    expect(r.idcp).toEqual(['101', '201']);
    expect(r.measure).toEqual(full.measure);
    expect(r.dateCreated).toBe('15-05-2026 12:34:56');
    expect(r.dateModified).toBe('');
  });

  it('fills subtype from the catalog: register number, holder, substance, registration dates, product type', () => {
    const s = record(full).subtype!;
    expect(registerNumber('ES-11179')).toBe(11179);
    expect(s).toMatchObject({ type: 'TypePhytosanitary', id: 11179, name: 'MICROTHIOL SPECIAL DISPERSS' });
    expect(s.subtype).toMatchObject({
      type: 'SubtypePhytosanitary',
      id: 11179,
      code: 'ES-11179',
      comp: { type: 'Company', id: 0, name: 'UPL IBERIA, S.A.', nif: 'A08000000' },
      subs: { type: 'Substance', id: '', name: 'AZUFRE 80% [WG] P/P' },
    });
    expect(s.tpd).toEqual([{ type: 'TPD', id: 11179, idate: '14-06-2001', edate: '31-07-2027', ldate: '31-01-2028' }]);
    expect(s.prod).toEqual({ type: 'TypeProduct', id: 1, name: 'Fungicida' });
  });

  it('lists in ci the authorized crop/infection pairs of the crops treated only', () => {
    expect(record(full).subtype!.subtype.ci).toEqual([
      {
        type: 'CropInfection',
        crop: '102',
        infection: { kind: 'enfermedad', id: '148', name: 'Oídio de la vid, Erysiphe necator' },
      },
      {
        type: 'CropInfection',
        crop: '101',
        infection: { kind: 'enfermedad', id: '42', name: 'Negrilla, fumagina, Capnodium elaeophilum' },
      },
    ]);
    expect(record(phytoRequest()).subtype!.subtype.ci.map((c) => c.crop)).toEqual(['102']);
  });

  it('stores the optional SIEX fields as given, the NIF normalized, and the longest safety interval of the uses', () => {
    const r = record(full);
    expect(r).toMatchObject({
      infection: full.infection,
      idtpismv: ['148'],
      tj: full.tj,
      efficacy: full.efficacy,
      machine: full.machine,
      manual: true,
      advisor: full.advisor,
      phenology: full.phenology,
      detail: 'tratamiento de mañana',
      batch: 'L-2026-05',
      soup: '1000',
      dt: '5.5',
      mdt: full.mdt,
      st: '6.47',
      mst: full.mst,
      surface: '6.47',
      preventive: '1',
      distributed: '1',
      reviewed: '1',
      pp: '0',
      speed: '6.5',
      recipe: 'REC-77',
      // MICROTHIOL's register says NO PROCEDE: none applies, which is not 0 days (issue 23)
      seclimit: 'NP',
      applicator: { user: { type: 'UserMetadata', nif: '23456789D', ropo: 'ES-46001234' } },
    });
  });

  it('gives neutral values to everything the request did not supply', () => {
    const r = record(phytoRequest());
    expect(r).toMatchObject({
      typerisk: { type: 'TypeRisk', id: '', name: '', detail: '' },
      infection: null,
      detail: null,
      tj: [],
      idtpismv: [],
      distributed: '0',
      reviewed: '0',
      exported: '0',
      batch: '',
      soup: '',
      dt: '',
      mdt: null,
      st: '',
      mst: null,
      efficacy: { type: 'TypeEfficacy', id: '', name: '', detail: '' },
      preventive: '0',
      pp: '',
      speed: '',
      recipe: '',
      surface: '',
      entrylimit: '',
      machine: [],
      manual: false,
      advisor: null,
      phenology: null,
      regionalAttributes: [],
    });
    expect(r.subtype!.subtype.idpdf).toBe('');
  });

  it('marks the record exported when registered with exported=1', () => {
    expect(record(phytoRequest(), true).exported).toBe('1');
  });

  it('issue 23: seclimit is the longest interval in days, "NP" only when every use stating one says none applies', () => {
    expect(seclimitOf([{ safetyDays: 'NP' }, { safetyDays: undefined }])).toBe('NP');
    expect(seclimitOf([{ safetyDays: 'NP' }, { safetyDays: 14 }])).toBe('14');
    expect(seclimitOf([{ safetyDays: 0 }])).toBe('0');
    expect(seclimitOf([{ safetyDays: 0 }, { safetyDays: 'NP' }])).toBe('0');
    expect(seclimitOf([])).toBe('');
  });

  it('issue 23: a row stored before "NP" existed reads its "0" as "NP"; a row of the current format is read as it is', () => {
    const old = { ...record(full), seclimit: '0' };
    expect(upgradeRecord(old, 1).seclimit).toBe('NP');
    expect(upgradeRecord(old, RECORD_FORMAT)).toBe(old);
    expect(upgradeRecord({ ...old, seclimit: '14' }, 1).seclimit).toBe('14');
    expect(upgradeRecord({ ...old, seclimit: '' }, 1).seclimit).toBe('');
  });

  it('leaves seclimit empty when no authorizing use states a safety interval', () => {
    const entries = [farm.byIdcp.get(101)!];
    const noSafety = { ...product.uses[0], safetyDays: undefined };
    expect(
      buildRecord(1, treatmentFromWire(phytoRequest()), product, { entries, uses: [noSafety] }, farm, false, now)
        .seclimit,
    ).toBe('');
  });
});
