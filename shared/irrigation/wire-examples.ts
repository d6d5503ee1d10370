import { z } from 'zod';
import { DEMO_FARM, refusedItem } from '../api/examples';
import { recordVersionSchema } from '../api/history-schemas';
import { OperationExample, RecordOperation } from '../records/kind-entry';
import { irrigationPatchSchema, irrigationRecordViewSchema, irrigationRequestSchema } from './wire';

/**
 * The worked examples of the irrigations' operations in the OpenAPI document, with the demo data (`npm start`). Typed
 * by the kind's schemas, and parsed by the contracts in a unit test.
 */
// Drip irrigation of La Hoya 12-45-2 (idcp 2) over two days, 35 m3/ha of well water pumped by solar power, read on the
// farm's meter, with Anexo IX's first good practice (doses fitted to the crop's needs).
const IRRIGATION = 'urn:ngsi-ld:AgriIrrigation:1';

const drip = {
  type: 'AgriIrrigation',
  dateStart: '21-11-2026',
  dateEnd: '22-11-2026',
  idcp: ['2'],
  system: { type: 'TypeIrrigationSystem', id: '6', name: 'Goteo' },
  quantity: 35,
  measure: { type: 'Measure', name: 'm3/ha', symbol: 'm3/ha', code: 19 },
  waterOrigins: [{ type: 'TypeWaterOrigin', id: '2', name: 'Subterránea' }],
  energy: { type: 'TypeEnergy', id: '4', name: 'FOTOVOLTAICA' },
  meter: 'CNT-0457',
  goodPractices: [{ type: 'TypeGoodPractice', id: '21', name: 'Dosis y frecuencia de riego ajustadas' }],
} as const satisfies z.input<typeof irrigationRequestSchema>;

const irrigation = {
  id: IRRIGATION,
  ...drip,
  dateCreated: '22-11-2026 18:02:40',
  dateModified: '',
  water: { m3: 35, perHa: true },
  exported: '0',
  exportable: true,
  exportBlockers: [],
} satisfies z.output<typeof irrigationRecordViewSchema>;

const registerExample = {
  query: { agrifarmId: DEMO_FARM },
  request: drip,
  response: [irrigation],
};

// The same water written in kg: a mass is no measure of water.
const batchExample = {
  query: { agrifarmId: DEMO_FARM },
  request: [drip, { ...drip, measure: { type: 'Measure', name: 'kg', symbol: 'kg', code: 5 } }],
  response: [
    { index: 0, status: 201, etag: '"1"', body: [irrigation] },
    refusedItem(1, [
      {
        code: 'IRRIGATION_UNIT',
        path: 'body.measure.code',
        message: 'the water must be a volume (m3, L) or a volume per area (m3/ha, L/m2), not kg',
      },
    ]),
  ],
};

const listExample = {
  query: { agrifarmId: DEMO_FARM, page: 1, page_size: 20 },
  response: [irrigation],
};

const readExample = {
  params: { id: IRRIGATION },
  query: { agrifarmId: DEMO_FARM },
  response: [irrigation],
};

const amendExample = {
  params: { id: IRRIGATION },
  query: { agrifarmId: DEMO_FARM },
  request: { quantity: 38 } satisfies z.input<typeof irrigationPatchSchema>,
  response: [
    { ...irrigation, quantity: 38, water: { m3: 38, perHa: true }, dateModified: '01-12-2026 09:30:00' },
  ] satisfies z.output<typeof irrigationRecordViewSchema>[],
};

const deleteExample = {
  params: { id: IRRIGATION },
  query: { agrifarmId: DEMO_FARM },
  response: undefined,
};

const historyExample = {
  params: { id: IRRIGATION },
  query: { agrifarmId: DEMO_FARM },
  response: [
    {
      version: 1,
      date: irrigation.dateCreated,
      client: 'agrosoft-levante',
      kind: 'created',
      changes: Object.entries(drip).map(([field, value]) => ({ field, old: null, new: value })),
    },
    {
      version: 2,
      date: '01-12-2026 09:30:00',
      client: 'agrosoft-levante',
      kind: 'amended',
      changes: [{ field: 'quantity', old: 35, new: 38 }],
    },
  ] satisfies z.output<typeof recordVersionSchema>[],
};

export const irrigationExamples: Record<RecordOperation, OperationExample> = {
  register: registerExample,
  batch: batchExample,
  list: listExample,
  read: readExample,
  amend: amendExample,
  delete: deleteExample,
  history: historyExample,
};
