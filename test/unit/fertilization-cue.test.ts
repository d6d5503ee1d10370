import { fertilizeRecordSchema, fertilizeRequestSchema } from '../../shared/fertilization/wire';
import { FarmIndex } from '../../shared/farms/farm-index';
import { mapFertilization } from '../../shared/fertilization/cue-block';
import { fertilizationOf } from '../../shared/fertilization/wire-mapper';
import { fertilizationView } from '../../shared/fertilization/record-view';
import { cueDocument } from '../../shared/siex/cue-mapping';
import { CUE_FIELDS, descriptorProblems } from '../helpers/cue-descriptor';
import { cueValidator } from '../helpers/cue-schema';
import { madrid } from '../helpers/phyto-fixtures';
import { fertilizationFarm, manureBody, mineralBody, slurryBody } from '../helpers/fertilization-fixtures';

/** Issue 25, item 4: fertilizations as CUE `Fertilizacion` blocks, valid against the schema and the descriptor table. */

const recordOf = (body: Record<string, unknown>, id = 7, kg = 100) =>
  fertilizationView({
    id,
    fertilization: fertilizationOf(fertilizeRequestSchema.parse(body)),
    nitrogenKgPerHa: kg,
    exported: false,
    now: madrid('14-05-2026 18:00:00'),
  });

function blocksOf(farm: FarmIndex, body: Record<string, unknown>, firstId: number) {
  const mapped = mapFertilization(recordOf(body), farm);
  if (!mapped.ok) throw new Error(mapped.missing.join('; '));
  return mapped.blocks.map((b, k) => ({ IdAjenaFerti: firstId + k, ...b.body }));
}

/** Every table path a document writes. */
function paths(v: unknown, p = ''): string[] {
  if (Array.isArray(v)) return v.flatMap((x) => paths(x, p));
  if (v !== null && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => paths(x, p ? `${p}.${k}` : k));
  return [p];
}

describe('the Fertilizacion block', () => {
  it('sends AplicacionLodos as the material says, whatever a record stored before the flag was checked says', () => {
    const sludgeRecord = recordOf(mineralBody());
    const stored = {
      ...sludgeRecord,
      material: { ...sludgeRecord.material, id: '22' },
      sludge: false,
    };
    const mapped = mapFertilization(stored, fertilizationFarm());
    expect(mapped.ok && mapped.blocks.map((b) => b.body.AplicacionMaterialFertilizante)).toEqual([
      expect.objectContaining({ AplicacionLodos: true }),
    ]);
    const mineral = mapFertilization(recordOf(mineralBody()), fertilizationFarm());
    expect(mineral.ok && mineral.blocks.map((b) => b.body.AplicacionMaterialFertilizante)).toEqual([
      expect.objectContaining({ AplicacionLodos: false }),
    ]);
  });

  const farm = fertilizationFarm();
  const full = slurryBody({
    dateEnd: '14-05-2026',
    surface: '2.5',
    fertigation: {
      system: { type: 'TypeIrrigationSystem', id: '6', name: 'Goteo' },
      waterOrigins: [{ type: 'TypeWaterOrigin', id: '2', name: '' }],
      quantity: 120.456,
      measure: { type: 'Measure', name: 'm3/ha', symbol: 'm3/ha', code: 19 },
      nDose: 20.00049,
      nMeasure: { type: 'Measure', name: 'kg/ha', symbol: 'kg/ha', code: 17 },
      pDose: 5,
      pMeasure: { type: 'Measure', name: 'kg/ha', symbol: 'kg/ha', code: 17 },
    },
    machine: [{ type: 'Machine', id: '060303021', name: 'Cisterna', roma: '', ref: 'CUBA-2' }],
    sludge: false,
  });
  (full.material as Record<string, unknown>).micronutrients = [{ id: '3', percent: 0.01 }];
  (full.material as Record<string, unknown>).heavyMetals = [{ id: '1', percent: 0.0001 }];
  (full.material as Record<string, unknown>).productName = 'Purín de cebo';

  it("writes every field of the descriptor table's Fertilizacion, each in its form, valid against schema 3.11.4", () => {
    const withRoma = mineralBody({
      machine: [{ type: 'Machine', id: '060303021', name: 'Abonadora', roma: 'R-77', ref: '' }],
    });
    (withRoma.material as Record<string, unknown>).detail = { type: 'TypeFertilizerDetail', id: '1', name: '' };
    const blocks = [
      ...blocksOf(farm, full, 11),
      ...blocksOf(farm, withRoma, 12),
      { ...blocksOf(farm, manureBody(), 13)[0], Borrar: true },
    ];
    const doc = cueDocument(farm, { Fertilizacion: blocks });
    expect(descriptorProblems(doc)).toEqual([]);
    const validate = cueValidator();
    expect(validate(doc) ? [] : validate.errors).toEqual([]);
    const written = new Set(paths(doc));
    const unwritten = Object.keys(CUE_FIELDS).filter((k) => k.includes('.Fertilizacion.') && !written.has(k));
    // A supplier is one of NIF, REGA or NIMA (exclusive in the schema): these records name theirs by REGA.
    expect(unwritten.sort()).toEqual([
      'CUADERNO.ActividadesExplotacion.Fertilizacion.MaterialFertilizante.NIMA',
      'CUADERNO.ActividadesExplotacion.Fertilizacion.MaterialFertilizante.NifEmpresa',
    ]);
  });

  it('names the commercial product the registration found by the product name, as if the request had named it', () => {
    const body = mineralBody();
    (body.material as Record<string, unknown>).productName = 'ÁCIDO NÍTRICO (15-00-00)';
    const record = fertilizationView({
      id: 7,
      fertilization: fertilizationOf(fertilizeRequestSchema.parse(body)),
      nitrogenKgPerHa: 15,
      detail: { code: 1, name: 'ÁCIDO NÍTRICO (15-00-00) de GENÉRICO' },
      exported: false,
      now: madrid('14-05-2026 18:00:00'),
    });
    expect(record.material.detail).toEqual({
      type: 'TypeFertilizerDetail',
      id: '1',
      name: 'ÁCIDO NÍTRICO (15-00-00) de GENÉRICO',
    });
    const mapped = mapFertilization(record, farm);
    expect(
      mapped.ok &&
        mapped.blocks.map((b) => (b.body.MaterialFertilizante as { DetalleMaterial?: number }).DetalleMaterial),
    ).toEqual([1]);
    // A record with no product named sends none.
    const none = mapFertilization(recordOf(mineralBody()), farm);
    expect(none.ok && 'DetalleMaterial' in (none.blocks[0].body.MaterialFertilizante as object)).toBe(false);
  });

  it('rounds to the descriptor: Dosis and DosisN to 3 decimals, Cantidad and Superficie to 2', () => {
    const [b] = blocksOf(farm, { ...full, dose: 30.00049 }, 1);
    expect(b).toMatchObject({
      FechaInicio: '14/05/2026',
      FechaFin: '14/05/2026',
      BuenasPracticas: [{ TipoBPF: 15 }],
      MaterialFertilizante: {
        Material: 3,
        REGA: 'ES460130000123',
        EmpresaSuministradora: 'Granja Els Pins',
        Densidad: 1.05,
        UnidadesMedida: 12,
      },
      AplicacionMaterialFertilizante: {
        Dosis: 30,
        Unidad: 19,
        TipoFertilizacion: 1,
        MetodoFertilizacion: 2,
        AplicacionLodos: false,
      },
      EquipoAplicador: { IdEquipoAplicador: 'CUBA-2', TipoMaquinariaUNE: '060303021' },
      Fertirrigacion: { Cantidad: 120.46, DosisN: 20, DosisP: 5, OrigenAgua: [{ IdOrigenAgua: 2 }] },
      DGCs: [{ CodigoDGC: 4600000103, CodigoCultivo: 102, Superficie: 2.5 }],
    });
  });

  it('is one block per crop and variety, DGCs of that crop only, keyed for the IdAjena the core keeps', () => {
    const twoCrops = fertilizationFarm({ idcp: 401, crop: 1, sameEnclosureAs: 101 });
    const record = recordOf(mineralBody({ idcp: ['101', '401', '102'] }));
    const mapped = mapFertilization(record, twoCrops);
    expect(
      mapped.ok && mapped.blocks.map((b) => [b.key, (b.body.DGCs as { CodigoDGC: number }[]).map((d) => d.CodigoDGC)]),
    ).toEqual([
      ['102~1001', [4600000101, 4600000102]],
      ['101~2001', [4600000401]],
    ]);
  });

  it('says what SIEX needs that the record lacks: a DGC, the farm REA, a dose it can write', () => {
    const doc = fertilizationFarm().doc;
    doc.meta.codigoRea = '';
    doc.idcps = doc.idcps.map((e) => (e.idcp === 102 ? { ...e, dgc: undefined } : e));
    expect(mapFertilization(recordOf(mineralBody({ dose: 0.0004 })), new FarmIndex(doc))).toEqual({
      ok: false,
      missing: [
        'the farm has no 14-character REA code (CodigoRea)',
        'enclosure of idcp 102 has no DGC code (CodigoDGC)',
        'dose 0.0004 is below 0.001, the least Dosis the descriptor writes (number(8,3))',
      ],
    });
  });

  it('says GestionSostInsu as the record states it, else as the farm does, and waits when neither says', () => {
    const farmSays = (sustainableInputs: boolean | undefined) => {
      const doc = fertilizationFarm().doc;
      const { sustainableInputs: _, ...meta } = doc.meta;
      return new FarmIndex({ ...doc, meta: sustainableInputs === undefined ? meta : { ...meta, sustainableInputs } });
    };
    const said = (body: Record<string, unknown>, farm: FarmIndex) => {
      const mapped = mapFertilization(recordOf(body), farm);
      return mapped.ok ? mapped.blocks.map((b) => b.body.GestionSostInsu) : mapped.missing;
    };
    expect(said(mineralBody(), farmSays(true))).toEqual([true]);
    expect(said(mineralBody(), farmSays(false))).toEqual([false]);
    expect(said(mineralBody({ sustainableInputs: false }), farmSays(true))).toEqual([false]);
    expect(said(mineralBody({ sustainableInputs: true }), farmSays(undefined))).toEqual([true]);
    expect(said(mineralBody(), farmSays(undefined))).toEqual([
      'neither the record (sustainableInputs) nor the farm (the back office) says whether the holding manages its ' +
        'inputs sustainably under RD 1051/2022 (GestionSostInsu, required of every fertilization)',
    ]);
    // A record's own word is kept as registered, and answered back; none stated is none answered.
    expect(recordOf(mineralBody({ sustainableInputs: false })).sustainableInputs).toBe(false);
    expect(recordOf(mineralBody())).not.toHaveProperty('sustainableInputs');
  });

  it('the view answers the request as registered, its last day, and the nitrogen in hundredths', () => {
    expect(recordOf(manureBody(), 9, 100.004)).toMatchObject({
      id: 'urn:ngsi-ld:AgriFertilize:9',
      type: 'AgriFertilize',
      dateStart: '14-05-2026',
      dateEnd: '14-05-2026',
      dateCreated: '14-05-2026 18:00:00',
      dateModified: '',
      nitrogen: { kgPerHa: 100, livestockManure: true },
      exported: '0',
    });
    expect(recordOf(mineralBody()).nitrogen.livestockManure).toBe(false);
    // The view is what its schema (the answer's contract) says, the full record included.
    for (const record of [recordOf(full), recordOf(manureBody())])
      expect(fertilizeRecordSchema.strict().parse(record)).toEqual(record);
  });
});
