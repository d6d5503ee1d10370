import { z } from 'zod';
import { refusedItem } from '../api/examples';
import { DEMO_AMENDED, recordExamples } from '../api/record-examples';
import { OperationExample, RecordOperation } from '../records/kind-entry';
import { treatedSeedPatchSchema, treatedSeedRecordViewSchema, treatedSeedRequestSchema } from './wire';

/**
 * The worked examples of the treated seed's operations in the OpenAPI document, on the demo data (`npm start`): 180 kg
 * of wheat seed dressed on the farm with LATITUDE XL (siltiofam, whose seed use on wheat is 2 L/t), 2 ml per
 * kilogram. Typed by the kind's schemas, and parsed by the contracts in a unit test.
 */
const RECORD = 'urn:ngsi-ld:AgriTreatedSeed:1';

const dressing = {
  type: 'AgriTreatedSeed',
  date: '18-11-2026 09:00:00',
  treatment: { type: 'TypeSeedTreatment', id: '2', name: 'Realizado en la explotación' },
  crop: { type: 'TypeCrop', id: '1', name: 'TRIGO BLANDO' },
  lot: 'L-2026-117',
  quantity: 180,
  measure: { type: 'Measure', name: 'Kilogramo', symbol: 'kg', code: 5 },
  products: [
    {
      subtype: { type: 'TypePhytosanitary', name: 'LATITUDE XL', code: 'ES-00080' },
      dose: 2,
      measure: { type: 'Measure', name: 'Mililitros por kilogramo', symbol: 'ml/kg', code: 52 },
    },
  ],
  efficacy: { type: 'TypeEfficacy', id: '1', name: 'Buena', detail: '' },
} as const satisfies z.input<typeof treatedSeedRequestSchema>;

const record = {
  id: RECORD,
  ...dressing,
  dateCreated: '18-11-2026 10:12:03',
  dateModified: '',
  exported: '0',
  exportable: true,
  exportBlockers: [],
} satisfies z.output<typeof treatedSeedRecordViewSchema>;

export const treatedSeedExamples: Record<RecordOperation, OperationExample> = recordExamples({
  id: RECORD,
  request: dressing,
  record,
  batch: {
    request: [dressing, { ...dressing, products: undefined }],
    response: [
      { index: 0, status: 201, etag: '"1"', body: [record] },
      refusedItem(1, [
        {
          code: 'SEED_PRODUCTS_REQUIRED',
          path: 'body.products',
          message: 'seed treated on the farm must name the products it was treated with',
        },
      ]),
    ],
  },
  amendment: { lot: 'L-2026-118' } satisfies z.input<typeof treatedSeedPatchSchema>,
  amended: { ...record, lot: 'L-2026-118', dateModified: DEMO_AMENDED } satisfies z.output<
    typeof treatedSeedRecordViewSchema
  >,
  changed: [{ field: 'lot', old: 'L-2026-117', new: 'L-2026-118' }],
});
