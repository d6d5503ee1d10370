import { z } from 'zod';
import { refusedItem } from '../api/examples';
import { DEMO_AMENDED, recordExamples } from '../api/record-examples';
import { OperationExample, RecordOperation } from '../records/kind-entry';
import { postHarvestPatchSchema, postHarvestRecordViewSchema, postHarvestRequestSchema } from './wire';

/**
 * The worked examples of the post-harvest treatments' operations in the OpenAPI document, on the demo data (`npm
 * start`): 24 t of oranges waxed with imazalil (CITRASHINE N-IMZ, whose one use is post-harvest on citrus, 1 L/t) in
 * the farm's packing shed. Typed by the kind's schemas, and parsed by the contracts in a unit test.
 */
const RECORD = 'urn:ngsi-ld:AgriPostHarvestTreatment:1';

const waxing = {
  type: 'AgriPostHarvestTreatment',
  dateApplication: '21-11-2026 11:30:00',
  plantProduct: {
    type: 'TypePlantProduct',
    id: '116',
    name: 'Naranjas',
    quantity: 24,
    measure: { type: 'Measure', name: 'Tonelada', symbol: 't', code: 6 },
  },
  subtype: { type: 'TypePhytosanitary', name: 'CITRASHINE N-IMZ', code: 'ES-16232' },
  dose: 0.001,
  measure: { type: 'Measure', name: 'Litros por kilogramo', symbol: 'L/kg', code: 39 },
  applicator: { user: { type: 'UserMetadata', nif: '12345678Z', ropo: 'ES-46000123' } },
  infection: { type: 'TypeInfection', kind: 'enfermedad', id: '5', name: 'Enfermedades post-cosecha (hongos)' },
  tj: [{ type: 'TypeJustification', id: '1', name: 'Superación de umbrales' }],
  efficacy: { type: 'TypeEfficacy', id: '1', name: 'Buena', detail: '' },
  // A hand-held sprayer over the bins (a powered line would state its inspection day, RD 1702/2011 art. 6).
  machine: [{ type: 'Machine', id: '060303013', name: 'Mochila 16 L', ref: 'MOCHILA-1' }],
} as const satisfies z.input<typeof postHarvestRequestSchema>;

const record = {
  id: RECORD,
  ...waxing,
  machine: [{ ...waxing.machine[0], roma: '', inspection: '' }],
  dateCreated: '21-11-2026 12:02:40',
  dateModified: '',
  exported: '0',
  exportable: true,
  exportBlockers: [],
} satisfies z.output<typeof postHarvestRecordViewSchema>;

// A vine's sulphur has no post-harvest use.
const amended = { ...waxing.plantProduct, quantity: 26 };

export const postHarvestExamples: Record<RecordOperation, OperationExample> = recordExamples({
  id: RECORD,
  request: waxing,
  record,
  batch: {
    request: [
      waxing,
      { ...waxing, subtype: { type: 'TypePhytosanitary', name: 'MICROTHIOL SPECIAL DISPERSS', code: 'ES-11179' } },
    ],
    response: [
      { index: 0, status: 201, etag: '"1"', body: [record] },
      refusedItem(1, [
        {
          code: 'PRODUCT_NOT_FOR_CROP',
          path: 'body.subtype',
          message:
            'ES-11179 is not authorized on Naranjas (PROD_VEGETAL 116) after harvest (no use of the register for harvested produce)',
        },
      ]),
    ],
  },
  amendment: { plantProduct: amended } satisfies z.input<typeof postHarvestPatchSchema>,
  amended: { ...record, plantProduct: amended, dateModified: DEMO_AMENDED } satisfies z.output<
    typeof postHarvestRecordViewSchema
  >,
  changed: [{ field: 'plantProduct', old: waxing.plantProduct, new: amended }],
});
