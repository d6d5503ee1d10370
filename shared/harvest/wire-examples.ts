import { z } from 'zod';
import { DEMO_FARM, refusedItem } from '../api/examples';
import { recordVersionSchema } from '../api/history-schemas';
import { OperationExample, RecordOperation } from '../records/kind-entry';
import { harvestPatchSchema, harvestRecordViewSchema, harvestRequestSchema } from './wire';

/**
 * The worked examples of the harvests' operations in the OpenAPI document, on the demo data (`npm start`): the olive
 * grove of Los Olivos 15-102-3 (idcp 4), harvested the day after the README flow's sulphur treatment, whose "NP"
 * interval holds no harvest. Typed by the kind's schemas, and parsed by the contracts in a unit test.
 */
const HARVEST = 'urn:ngsi-ld:AgriHarvest:1';

const olives = {
  type: 'AgriHarvest',
  dateStart: '22-11-2026',
  idcp: ['4'],
  quantity: 8200,
  measure: { type: 'Measure', name: 'Kilogramo', symbol: 'kg', code: 5 },
  product: { type: 'TypePlantProduct', id: '1', name: 'Aceitunas' },
  residue: [{ type: 'TypeResidueDestination', id: '1', name: 'Incorporación al suelo' }],
} as const satisfies z.input<typeof harvestRequestSchema>;

const harvest = {
  id: HARVEST,
  ...olives,
  dateEnd: olives.dateStart,
  purpose: [],
  cut: 'harvest',
  seedForSowing: false,
  plants: false,
  notHarvested: false,
  leftOnSoil: false,
  dateCreated: '22-11-2026 18:40:12',
  dateModified: '',
  exported: '0',
  exportable: true,
  exportBlockers: [],
} satisfies z.output<typeof harvestRecordViewSchema>;

const registerExample = { query: { agrifarmId: DEMO_FARM }, request: olives, response: [harvest] };

// Wine grapes are no produce of an olive grove.
const batchExample = {
  query: { agrifarmId: DEMO_FARM },
  request: [olives, { ...olives, product: { type: 'TypePlantProduct', id: '210', name: 'Uvas de vinificación' } }],
  response: [
    { index: 0, status: 201, etag: '"1"', body: [harvest] },
    refusedItem(1, [
      {
        code: 'HARVEST_PRODUCT_NOT_OF_CROP',
        path: 'body.product',
        message:
          '210 (Uvas de vinificación) is not produce of 101 OLIVO, the crop of a location harvested; PROD_VEGETAL ' +
          'gives it for 102',
      },
    ]),
  ],
};

const listExample = { query: { agrifarmId: DEMO_FARM, page: 1, page_size: 20 }, response: [harvest] };

const readExample = { params: { id: HARVEST }, query: { agrifarmId: DEMO_FARM }, response: [harvest] };

const amendExample = {
  params: { id: HARVEST },
  query: { agrifarmId: DEMO_FARM },
  request: { quantity: 8450 } satisfies z.input<typeof harvestPatchSchema>,
  response: [{ ...harvest, quantity: 8450, dateModified: '23-11-2026 09:15:00' }] satisfies z.output<
    typeof harvestRecordViewSchema
  >[],
};

const deleteExample = { params: { id: HARVEST }, query: { agrifarmId: DEMO_FARM }, response: undefined };

const historyExample = {
  params: { id: HARVEST },
  query: { agrifarmId: DEMO_FARM },
  response: [
    {
      version: 1,
      date: harvest.dateCreated,
      client: 'agrosoft-levante',
      kind: 'created',
      changes: Object.entries(olives).map(([field, value]) => ({ field, old: null, new: value })),
    },
    {
      version: 2,
      date: '23-11-2026 09:15:00',
      client: 'agrosoft-levante',
      kind: 'amended',
      changes: [{ field: 'quantity', old: 8200, new: 8450 }],
    },
  ] satisfies z.output<typeof recordVersionSchema>[],
};

export const harvestExamples: Record<RecordOperation, OperationExample> = {
  register: registerExample,
  batch: batchExample,
  list: listExample,
  read: readExample,
  amend: amendExample,
  delete: deleteExample,
  history: historyExample,
};
