import { manureRequestBody } from '../../local/fixtures/fertilization';
import { fertilizeRequestSchema } from '../../shared/fertilization/wire';
import { FarmIndex } from '../../shared/farms/farm-index';
import { Fertilization } from '../../shared/fertilization/fertilization';
import { fertilizationOf } from '../../shared/fertilization/wire-mapper';
import { ManureNitrogenRow } from '../../shared/fertilization/manure-nitrogen';
import { FertilizationContext } from '../../shared/fertilization/rules';
import { FERTILIZATION_RECORDING_WINDOW } from '../../shared/fertilization/recording-window';
import { farmIndexDoc, madrid, testSiexCodes } from './phyto-fixtures';

/**
 * Pure builders for the fertilization tests: the phyto tests' farm with its first vine enclosure (idcp 101) in a
 * nitrate-vulnerable zone, and three requests of the issue's "Done when" on 14-05-2026 (Madrid), each valid as built.
 */
export function fertilizationFarm(extra?: { idcp: number; crop: number; sameEnclosureAs: number }): FarmIndex {
  const doc = farmIndexDoc();
  doc.idcps = doc.idcps.map((e) => ({
    ...e,
    dgc: String(4600000000 + e.idcp),
    ...(e.idcp === 101 ? { nitrateVulnerable: true } : {}),
  }));
  const twin = extra && doc.idcps.find((e) => e.idcp === extra.sameEnclosureAs);
  if (extra && twin)
    doc.idcps.push({ ...twin, idcp: extra.idcp, crop: extra.crop, dgc: String(4600000000 + extra.idcp) });
  return new FarmIndex(doc);
}

type Body = Record<string, unknown>;

/** A mineral fertilizer: 300 kg/ha of calcium ammonium nitrate 27 % N (MAT_FERTI 14, nutrients by its label). */
export function mineralBody(o: Body = {}): Body {
  return {
    type: 'AgriFertilize',
    dateStart: '14-05-2026',
    idcp: ['102'],
    material: {
      type: 'TypeFertilizerMaterial',
      id: '14',
      name: 'Productos fertilizantes: abonos inorgánicos',
      nutrients: [
        { id: '1', percent: 27 },
        { id: '3', percent: 13.5 },
        { id: '4', percent: 13.5 },
      ],
    },
    kind: { type: 'TypeFertilization', id: '2', name: 'Abonado de cobertera' },
    method: { type: 'TypeFertilizationMethod', id: '1', name: 'Esparcido general' },
    dose: 300,
    measure: { type: 'Measure', name: 'kg/ha', symbol: 'kg/ha', code: 17 },
    goodPractices: [{ type: 'TypeGoodPractice', id: '7', name: '' }],
    ...o,
  };
}

/** Pig slurry, 30 m3/ha at 1.05 kg/L and 0.5 % N (157.5 kg N/ha), spread broadcast and buried within 4 hours. */
export function slurryBody(o: Body = {}): Body {
  return {
    ...mineralBody(),
    idcp: ['103'],
    material: {
      type: 'TypeFertilizerMaterial',
      id: '3',
      name: 'Estiércol de porcino',
      nutrients: [
        { id: '1', percent: 0.5 },
        { id: '2', percent: 0.2 },
        { id: '6', percent: 0.3 },
        { id: '9', percent: 0.4 },
      ],
      treatment: { type: 'TypeManureTreatment', id: '1', name: 'Ninguno' },
      supplier: { rega: 'ES460130000123', name: 'Granja Els Pins' },
      density: 1.05,
    },
    kind: { type: 'TypeFertilization', id: '1', name: 'Abonado de fondo' },
    method: { type: 'TypeFertilizationMethod', id: '2', name: 'Esparcido general y enterrado' },
    dose: 30,
    measure: { type: 'Measure', name: 'm3/ha', symbol: 'm3/ha', code: 19 },
    goodPractices: [{ type: 'TypeGoodPractice', id: '15', name: '' }],
    ...o,
  };
}

/** Solid cattle manure on the vulnerable enclosure: `tonnes` t/ha at 0.5 % N (34 t/ha is 170 kg N/ha). */
export function manureBody(tonnes = 20, o: Body = {}): Body {
  return { ...manureRequestBody({ dateStart: '14-05-2026', idcp: '101', tonnes }), ...o };
}

/** A body as the API validates it, as the domain value. */
export function fertilization(body: Body): Fertilization {
  return fertilizationOf(fertilizeRequestSchema.parse(body));
}

export function fertilizationContext(
  body: Body,
  o: Partial<Omit<FertilizationContext, 'fertilization'>> = {},
): FertilizationContext {
  return {
    fertilization: fertilization(body),
    now: madrid('14-05-2026 18:00:00'),
    window: FERTILIZATION_RECORDING_WINDOW,
    farm: fertilizationFarm(),
    codes: testSiexCodes(),
    history: new Map<string, ManureNitrogenRow>(),
    own: null,
    ...o,
  };
}
