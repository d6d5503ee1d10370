import { APPLICATORS } from './phyto-stack';

/**
 * Valid bodies of the treatments of harvested produce and of stores (issue 34 items 2 and 3) on the tests' register
 * and catalogues, at the day and hour given (`DD-MM-YYYY HH:mm:ss`).
 */

/** What both bodies state alike: the applicator, the justification, the efficacy and the machine. */
const part = {
  applicator: { user: { type: 'UserMetadata', nif: APPLICATORS.basico.nif, ropo: APPLICATORS.basico.ropo } },
  tj: [{ type: 'TypeJustification', id: '1' }],
  efficacy: { type: 'TypeEfficacy', id: '1' },
  machine: [{ type: 'Machine', id: '060303013', name: 'Mochila', ref: 'MOCHILA-1' }],
};

/** 24 t of oranges (PROD_VEGETAL 116) dipped in CITRASHINE N-IMZ against post-harvest fungi. */
export function postHarvestBody(dateApplication: string) {
  return {
    type: 'AgriPostHarvestTreatment',
    dateApplication,
    plantProduct: {
      type: 'TypePlantProduct',
      id: '116',
      quantity: 24,
      measure: { type: 'Measure', name: 't', symbol: 't', code: 6 },
    },
    subtype: { type: 'TypePhytosanitary', name: 'CITRASHINE N-IMZ', code: 'ES-16232' },
    dose: 0.001,
    measure: { type: 'Measure', name: 'L/kg', symbol: 'L/kg', code: 39 },
    infection: { type: 'TypeInfection', kind: 'enfermedad', id: '5', name: 'Enfermedades post-cosecha (hongos)' },
    ...part,
  };
}

/** A store of 850 m3 (EDIFICACIONES_INSTALACIONES 3) treated with K-OBIOL EC 25 against store insects. */
export function facilityBody(dateApplication: string) {
  return {
    type: 'AgriFacilityTreatment',
    dateApplication,
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
    infection: { type: 'TypeInfection', kind: 'plaga', id: '33', name: 'Insectos de almacén' },
    ...part,
  };
}

/** 180 kg of wheat seed dressed on the farm with LATITUDE XL at 2 ml/kg, its seed use (2 L/t). */
export function seedDressingBody(date: string) {
  return {
    type: 'AgriTreatedSeed',
    date,
    treatment: { type: 'TypeSeedTreatment', id: '2' },
    crop: { type: 'TypeCrop', id: '1', name: 'TRIGO BLANDO' },
    lot: 'L-117',
    quantity: 180,
    measure: { type: 'Measure', name: 'kg', symbol: 'kg', code: 5 },
    products: [
      {
        subtype: { type: 'TypePhytosanitary', name: 'LATITUDE XL', code: 'ES-00080' },
        dose: 2,
        measure: { type: 'Measure', name: 'ml/kg', symbol: 'ml/kg', code: 52 },
      },
    ],
    efficacy: { type: 'TypeEfficacy', id: '1' },
  };
}
