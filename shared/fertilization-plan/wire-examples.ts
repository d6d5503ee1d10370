import { z } from 'zod';
import { DEMO_FARM, refusedItem } from '../api/examples';
import { recordVersionSchema } from '../api/history-schemas';
import { OperationExample, RecordOperation } from '../records/kind-entry';
import { planPatchSchema, planRecordViewSchema, planRequestSchema } from './wire';

/**
 * The worked examples of the plans' operations in the OpenAPI document, with the demo data (`npm start`). Typed by the
 * kind's schemas, and parsed by the contracts in a unit test.
 */
// The campaign's plan for the Tempranillo of La Hoya 12-45-2 (idcp 2), drawn up with a digital tool after the soil
// analysis: 8,000 kg of grapes a hectare, after vine.
const PLAN = 'urn:ngsi-ld:AgriFertilizationPlan:1';

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
  id: PLAN,
  ...vine,
  dateCreated: '22-11-2026 17:55:02',
  dateModified: '',
  exported: '0',
  exportable: true,
  exportBlockers: [],
} satisfies z.output<typeof planRecordViewSchema>;

const registerExample = { query: { agrifarmId: DEMO_FARM }, request: vine, response: [plan] };

// A nitrogen need no crop has: a slip of the decimal point.
const batchExample = {
  query: { agrifarmId: DEMO_FARM },
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
};

const listExample = { query: { agrifarmId: DEMO_FARM, page: 1, page_size: 20 }, response: [plan] };

const readExample = { params: { id: PLAN }, query: { agrifarmId: DEMO_FARM }, response: [plan] };

const amendExample = {
  params: { id: PLAN },
  query: { agrifarmId: DEMO_FARM },
  request: { needs: { n: 55 } } satisfies z.input<typeof planPatchSchema>,
  response: [{ ...plan, needs: { ...vine.needs, n: 55 }, dateModified: '01-12-2026 09:30:00' }] satisfies z.output<
    typeof planRecordViewSchema
  >[],
};

const deleteExample = { params: { id: PLAN }, query: { agrifarmId: DEMO_FARM }, response: undefined };

const historyExample = {
  params: { id: PLAN },
  query: { agrifarmId: DEMO_FARM },
  response: [
    {
      version: 1,
      date: plan.dateCreated,
      client: 'agrosoft-levante',
      kind: 'created',
      changes: Object.entries(vine).map(([field, value]) => ({ field, old: null, new: value })),
    },
    {
      version: 2,
      date: '01-12-2026 09:30:00',
      client: 'agrosoft-levante',
      kind: 'amended',
      changes: [{ field: 'needs.n', old: 60, new: 55 }],
    },
  ] satisfies z.output<typeof recordVersionSchema>[],
};

export const planExamples: Record<RecordOperation, OperationExample> = {
  register: registerExample,
  batch: batchExample,
  list: listExample,
  read: readExample,
  amend: amendExample,
  delete: deleteExample,
  history: historyExample,
};
