import { z } from 'zod';
import { DEMO_FARM, refusedItem } from '../api/examples';
import { recordVersionSchema } from '../api/history-schemas';
import { OperationExample, RecordOperation } from '../records/kind-entry';
import { phytoRequestSchema } from './wire';
import { phytoPatchSchema, phytoRecordViewSchema } from './wire-record';

/**
 * The worked examples of the treatments' operations in the OpenAPI document: the README's flow with the demo data
 * (`npm start`), as the gateway answered it. Typed by the kind's schemas, and parsed by the contracts in a unit test.
 */
const RECORD = 'urn:ngsi-ld:AgriPhytosanitary:1';

const treatment = {
  type: 'AgriPhytosanitary',
  dateApplication: '21-11-2026 16:09:11',
  subtype: { type: 'TypePhytosanitary', name: 'MICROTHIOL SPECIAL DISPERSS', code: 'ES-11179' },
  dose: 0.5,
  measure: { type: 'Measure', name: 'Porcentaje', symbol: '%', code: 14 },
  idcp: ['4'],
  applicator: { user: { type: 'UserMetadata', nif: '12345678Z', ropo: 'ES-46000123' } },
  infection: { type: 'TypeInfection', kind: 'enfermedad', id: '42', name: 'Negrilla' },
  tj: [{ type: 'TypeJustification', id: '1', name: 'Superación de umbrales' }],
  efficacy: { type: 'TypeEfficacy', id: '1', name: 'Buena', detail: '' },
  machine: [{ type: 'Machine', id: '060303013', name: 'Mochila 16 L', ref: 'MOCHILA-1' }],
  manual: true,
} as const satisfies z.input<typeof phytoRequestSchema>;

const record = {
  id: RECORD,
  type: 'AgriPhytosanitary',
  dateApplication: treatment.dateApplication,
  dateCreated: '22-11-2026 16:09:11',
  dateModified: '',
  subtype: {
    type: 'TypePhytosanitary',
    id: 11179,
    name: 'MICROTHIOL SPECIAL DISPERSS',
    subtype: {
      type: 'SubtypePhytosanitary',
      id: 11179,
      idpdf: '',
      code: 'ES-11179',
      comp: { type: 'Company', id: 0, name: 'UPL IBERIA, S.A.', nif: '' },
      subs: { type: 'Substance', id: '', name: 'AZUFRE 80% [WG] P/P' },
      detail: '',
      ci: [
        {
          type: 'CropInfection',
          crop: '101',
          infection: { kind: 'enfermedad', id: '42', name: 'Negrilla, fumagina, Capnodium elaeophilum' },
        },
      ],
    },
    tpd: [{ type: 'TPD', id: 11179, idate: '14-06-2001', edate: '31-07-2027', ldate: '' }],
    prod: { type: 'TypeProduct', id: 1, name: 'Fungicida' },
    code: 'ES-11179',
  },
  dose: '0.5',
  typerisk: { type: 'TypeRisk', id: '', name: '', detail: '' },
  infection: treatment.infection,
  detail: null,
  tj: [...treatment.tj],
  idtpismv: ['42'],
  distributed: '0',
  reviewed: '0',
  exported: '0',
  batch: '',
  soup: '',
  measure: treatment.measure,
  dt: '',
  mdt: null,
  st: '',
  mst: null,
  efficacy: treatment.efficacy,
  preventive: '0',
  pp: '',
  speed: '',
  recipe: '',
  surface: '',
  entrylimit: '',
  seclimit: 'NP',
  machine: [{ ...treatment.machine[0], roma: '', inspection: '' }],
  manual: true,
  advisor: null,
  phenology: null,
  idcp: ['4'],
  applicator: treatment.applicator,
  regionalAttributes: [],
  exportable: true,
  exportBlockers: [],
} satisfies z.output<typeof phytoRecordViewSchema>;

const registerExample = { query: { agrifarmId: DEMO_FARM }, request: treatment, response: [record] };

const registerBatchExample = {
  query: { agrifarmId: DEMO_FARM },
  request: [treatment, { ...treatment, dose: 5 }],
  response: [
    { index: 0, status: 201, etag: '"1"', body: [record] },
    refusedItem(1, [
      { code: 'DOSE_ABOVE_MAX', path: 'body.dose', message: 'dose 5 % is above the maximum 0.5 % for OLIVO' },
    ]),
  ],
};

const listExample = { query: { agrifarmId: DEMO_FARM, page: 1, page_size: 20 }, response: [record] };

const efficacyLater = {
  type: 'TypeEfficacy',
  id: '2',
  name: 'Muy buena',
  detail: 'sin negrilla a los 10 días',
} as const;

const amendExample = {
  params: { id: RECORD },
  query: { agrifarmId: DEMO_FARM },
  request: { efficacy: efficacyLater } satisfies z.input<typeof phytoPatchSchema>,
  response: [{ ...record, efficacy: efficacyLater, dateModified: '01-12-2026 09:30:00' }] satisfies z.output<
    typeof phytoRecordViewSchema
  >[],
};

const readExample = { params: { id: RECORD }, query: { agrifarmId: DEMO_FARM }, response: [record] };

const deleteExample = { params: { id: RECORD }, query: { agrifarmId: DEMO_FARM }, response: undefined };

const historyExample = {
  params: { id: RECORD },
  query: { agrifarmId: DEMO_FARM },
  response: [
    {
      version: 1,
      date: record.dateCreated,
      client: 'agrosoft-levante',
      kind: 'created',
      changes: Object.entries(treatment).map(([field, value]) => ({ field, old: null, new: value })),
    },
    {
      version: 2,
      date: '01-12-2026 09:30:00',
      client: 'agrosoft-levante',
      kind: 'amended',
      changes: [{ field: 'efficacy', old: treatment.efficacy, new: efficacyLater }],
    },
  ] satisfies z.output<typeof recordVersionSchema>[],
};

export const phytoExamples: Record<RecordOperation, OperationExample> = {
  register: registerExample,
  batch: registerBatchExample,
  list: listExample,
  read: readExample,
  amend: amendExample,
  delete: deleteExample,
  history: historyExample,
};
