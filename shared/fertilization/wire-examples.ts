import { z } from 'zod';
import { DEMO_FARM, refusedItem } from '../api/examples';
import { recordVersionSchema } from '../api/history-schemas';
import { OperationExample, RecordOperation } from '../records/kind-entry';
import { fertilizationPatchSchema, fertilizeRecordViewSchema, fertilizeRequestSchema } from './wire';

/**
 * The worked examples of the fertilizations' operations in the OpenAPI document: the README's flow with the demo data
 * (`npm start`), as the gateway answered it. Typed by the kind's schemas, and parsed by the contracts in a unit test.
 */
// The README flow's fertilization: solid cattle manure on La Hoya 12-45-2 (idcp 2), the demo's nitrate-vulnerable
// enclosure, 10 t/ha at 0.5 % N: 50 kg N/ha of the 170 a campaign allows there.
const FERTILIZATION = 'urn:ngsi-ld:AgriFertilize:1';

const manure = {
  type: 'AgriFertilize',
  dateStart: '22-11-2026',
  idcp: ['2'],
  material: {
    type: 'TypeFertilizerMaterial',
    id: '5',
    name: 'Estiércol sólido de bovino',
    nutrients: [
      { id: '1', percent: 0.5 },
      { id: '2', percent: 0.4 },
      { id: '6', percent: 0.3 },
      { id: '9', percent: 0.6 },
    ],
    treatment: { type: 'TypeManureTreatment', id: '1', name: 'Ninguno' },
    supplier: { rega: 'ES460130000777', name: 'Granja La Vega' },
  },
  kind: { type: 'TypeFertilization', id: '1', name: 'Abonado de fondo' },
  method: { type: 'TypeFertilizationMethod', id: '2', name: 'Esparcido general y enterrado' },
  dose: 10,
  measure: { type: 'Measure', name: 't/ha', symbol: 't/ha', code: 29 },
} as const satisfies z.input<typeof fertilizeRequestSchema>;

const fertilization = {
  id: FERTILIZATION,
  ...manure,
  material: { ...manure.material, micronutrients: [], heavyMetals: [] },
  dateEnd: manure.dateStart,
  sludge: false,
  goodPractices: [],
  dateCreated: '22-11-2026 16:10:02',
  dateModified: '',
  nitrogen: { kgPerHa: 50, livestockManure: true },
  exported: '0',
  exportable: true,
  exportBlockers: [],
} satisfies z.output<typeof fertilizeRecordViewSchema>;

const registerExample = {
  query: { agrifarmId: DEMO_FARM },
  request: manure,
  response: [fertilization],
};

// A second load of the same manure at 40 t/ha (200 kg N/ha) on the same enclosure would pass the 170.
const batchExample = {
  query: { agrifarmId: DEMO_FARM },
  request: [manure, { ...manure, dose: 40 }],
  response: [
    { index: 0, status: 201, etag: '"1"', body: [fertilization] },
    refusedItem(1, [
      {
        code: 'NITROGEN_LIMIT_EXCEEDED',
        path: 'body.idcp[0]',
        message:
          'livestock manure on SIGPAC enclosure 46-213-0-0-12-45-2, in a nitrate-vulnerable zone, would total 250 ' +
          'kg N/ha in the 2026 campaign (50 already, 200 in this record): the limit is 170 kg N/ha (Directive ' +
          '91/676/EEC, Annex III.2; RD 47/2022)',
      },
    ]),
  ],
};

const listExample = {
  query: { agrifarmId: DEMO_FARM, page: 1, page_size: 20 },
  response: [fertilization],
};

const readExample = {
  params: { id: FERTILIZATION },
  query: { agrifarmId: DEMO_FARM },
  response: [fertilization],
};

const amendExample = {
  params: { id: FERTILIZATION },
  query: { agrifarmId: DEMO_FARM },
  request: { dose: 12 } satisfies z.input<typeof fertilizationPatchSchema>,
  response: [
    {
      ...fertilization,
      dose: 12,
      nitrogen: { kgPerHa: 60, livestockManure: true },
      dateModified: '01-12-2026 09:30:00',
    },
  ] satisfies z.output<typeof fertilizeRecordViewSchema>[],
};

const deleteExample = {
  params: { id: FERTILIZATION },
  query: { agrifarmId: DEMO_FARM },
  response: undefined,
};

const historyExample = {
  params: { id: FERTILIZATION },
  query: { agrifarmId: DEMO_FARM },
  response: [
    {
      version: 1,
      date: fertilization.dateCreated,
      client: 'agrosoft-levante',
      kind: 'created',
      changes: Object.entries(manure).map(([field, value]) => ({ field, old: null, new: value })),
    },
    {
      version: 2,
      date: '01-12-2026 09:30:00',
      client: 'agrosoft-levante',
      kind: 'amended',
      changes: [{ field: 'dose', old: 10, new: 12 }],
    },
  ] satisfies z.output<typeof recordVersionSchema>[],
};

export const fertilizationExamples: Record<RecordOperation, OperationExample> = {
  register: registerExample,
  batch: batchExample,
  list: listExample,
  read: readExample,
  amend: amendExample,
  delete: deleteExample,
  history: historyExample,
};
