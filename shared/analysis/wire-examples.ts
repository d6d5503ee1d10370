import { z } from 'zod';
import { DEMO_FARM, refusedItem } from '../api/examples';
import { recordVersionSchema } from '../api/history-schemas';
import { OperationExample, RecordOperation } from '../records/kind-entry';
import { analysisPatchSchema, analysisRecordViewSchema, analysisRequestSchema } from './wire';

/**
 * The worked examples of the analyses' operations in the OpenAPI document, with the demo data (`npm start`). Typed by
 * the kind's schemas, and parsed by the contracts in a unit test.
 */
// A soil analysis of La Hoya 12-45-2 (idcp 2) before the campaign's fertilization plan.
const ANALYSIS = 'urn:ngsi-ld:AgriAnalysis:1';

const soil = {
  type: 'AgriAnalysis',
  date: '20-11-2026',
  idcp: ['2'],
  material: { type: 'TypeAnalyzedMaterial', id: '3', name: 'Suelo' },
  analyses: [{ type: 'TypeAnalysis', id: '5', name: 'Parámetros del Suelo' }],
  laboratory: { name: 'Laboratorio Agrario de Levante', nif: 'B12345674' },
  report: 'LAB-2026/0412',
  soil: { organicMatter: 1.8, sand: 42, silt: 35, clay: 23, ph: 8.1, phosphorus: 18, potassium: 240, nitrogen: 0.11 },
} as const satisfies z.input<typeof analysisRequestSchema>;

const analysis = {
  id: ANALYSIS,
  ...soil,
  substances: [],
  dateCreated: '22-11-2026 17:40:11',
  dateModified: '',
  exported: '0',
  exportable: true,
  exportBlockers: [],
} satisfies z.output<typeof analysisRecordViewSchema>;

const registerExample = { query: { agrifarmId: DEMO_FARM }, request: soil, response: [analysis] };

// A laboratory NIF whose control character is wrong.
const batchExample = {
  query: { agrifarmId: DEMO_FARM },
  request: [soil, { ...soil, laboratory: { ...soil.laboratory, nif: 'B12345675' } }],
  response: [
    { index: 0, status: 201, etag: '"1"', body: [analysis] },
    refusedItem(
      1,
      [
        {
          code: 'NIF_INVALID',
          path: 'body.laboratory.nif',
          message: 'B12345675 is not a valid NIF (control character)',
        },
      ],
      400,
    ),
  ],
};

const listExample = { query: { agrifarmId: DEMO_FARM, page: 1, page_size: 20 }, response: [analysis] };

const readExample = { params: { id: ANALYSIS }, query: { agrifarmId: DEMO_FARM }, response: [analysis] };

const amendExample = {
  params: { id: ANALYSIS },
  query: { agrifarmId: DEMO_FARM },
  request: { soil: { ph: 7.9 } } satisfies z.input<typeof analysisPatchSchema>,
  response: [{ ...analysis, soil: { ...soil.soil, ph: 7.9 }, dateModified: '01-12-2026 09:30:00' }] satisfies z.output<
    typeof analysisRecordViewSchema
  >[],
};

const deleteExample = { params: { id: ANALYSIS }, query: { agrifarmId: DEMO_FARM }, response: undefined };

const historyExample = {
  params: { id: ANALYSIS },
  query: { agrifarmId: DEMO_FARM },
  response: [
    {
      version: 1,
      date: analysis.dateCreated,
      client: 'agrosoft-levante',
      kind: 'created',
      changes: Object.entries(soil).map(([field, value]) => ({ field, old: null, new: value })),
    },
    {
      version: 2,
      date: '01-12-2026 09:30:00',
      client: 'agrosoft-levante',
      kind: 'amended',
      changes: [{ field: 'soil.ph', old: 8.1, new: 7.9 }],
    },
  ] satisfies z.output<typeof recordVersionSchema>[],
};

export const analysisExamples: Record<RecordOperation, OperationExample> = {
  register: registerExample,
  batch: batchExample,
  list: listExample,
  read: readExample,
  amend: amendExample,
  delete: deleteExample,
  history: historyExample,
};
