import { z } from 'zod';
import { refusedItem } from '../api/examples';
import { DEMO_AMENDED, recordExamples } from '../api/record-examples';
import { OperationExample, RecordOperation } from '../records/kind-entry';
import { planPatchSchema, planRecordViewSchema, planRequestSchema } from './wire';

/**
 * The worked examples of the plans' operations in the OpenAPI document, with the demo data (`npm start`). Typed by the
 * kind's schemas, and parsed by the contracts in a unit test.
 */
// The campaign's plan for the Tempranillo of La Hoya 12-45-2 (idcp 2), drawn up with a digital tool after the soil
// analysis: 8,000 kg of grapes a hectare, after vine.
const vine = {
  type: 'AgriFertilizationPlan',
  date: '21-11-2026',
  idcp: ['2'],
  needs: { n: 60, p2o5: 30, k2o: 90 },
  yieldTarget: 8000,
  previousCrop: { type: 'TypeCrop', id: '102', name: 'VIÑA' },
  tool: true,
} as const satisfies z.input<typeof planRequestSchema>;

const plan = {
  id: 'urn:ngsi-ld:AgriFertilizationPlan:1',
  ...vine,
  dateCreated: '22-11-2026 17:55:02',
  dateModified: '',
  exported: '0',
  exportable: true,
  exportBlockers: [],
} satisfies z.output<typeof planRecordViewSchema>;

export const planExamples: Record<RecordOperation, OperationExample> = recordExamples({
  id: plan.id,
  request: vine,
  record: plan,
  // A nitrogen need no crop has: a slip of the decimal point.
  batch: {
    request: [vine, { ...vine, needs: { ...vine.needs, n: 6000 } }],
    response: [
      { index: 0, status: 201, etag: '"1"', body: [plan] },
      refusedItem(1, [
        {
          code: 'QUANTITY_OUT_OF_BOUNDS',
          path: 'body.needs.n',
          message:
            "6000 kg/ha is more than 1000 kg/ha, the most nitrogen need a plan may state (RD 1051/2022 art. 6 states no figure; the gateway's bound, above any crop's)",
        },
      ]),
    ],
  },
  amendment: { needs: { n: 55 } } satisfies z.input<typeof planPatchSchema>,
  amended: {
    ...plan,
    needs: { ...vine.needs, n: 55 },
    dateModified: DEMO_AMENDED,
  } satisfies z.output<typeof planRecordViewSchema>,
  changed: [{ field: 'needs.n', old: 60, new: 55 }],
});
