import { z } from 'zod';
import { exportBodySchema, exportResponseSchema, jobResultSchema, jobSchema } from './export-schemas';
import { farmSchema, idcpSetSchema, listIdcpBodySchema } from './farm-schemas';
import { recordVersionSchema } from './history-schemas';
import { phytoPatchSchema, phytoRecordSchema, phytoRequestSchema } from './phyto-schemas';

/**
 * Worked examples for the OpenAPI document: the README's flow with the demo data (`npm start`), as the gateway
 * answered it. Typed by the contracts' schemas, and parsed by them in a unit test, so an example cannot drift from
 * what the gateway accepts and answers.
 */
const AGRIFARM = 'urn:ngsi-ld:AgriFarm:1';
const RECORD = 'urn:ngsi-ld:AgriPhytosanitary:1';

const olive = {
  type: 'TypeCropVariety',
  typecrop: { type: 'TypeCrop', id: '101', name: 'OLIVO' },
  code: 2001,
  name: 'BLANQUETA',
} as const;

const oliveEnclosure = { prov: '46', town: '213', aggr: '0', zone: '0', pol: '15', parc: '102', enc: '3' };

export const farmLookupExample = {
  query: { rea: '46000000001', year: 2026 },
  response: [
    {
      id: AGRIFARM,
      name: 'Finca El Olivar',
      description: 'Viña y olivar de secano',
      year: 2026,
      dateCreated: '22-11-2026 16:08:45',
      address: { addressLocality: 'Requena', addressCountry: 'ES' },
      owned: { name: 'Luis', surname: 'García Sanz', email: 'luis.garcia@example.org', nif: '71234567W' },
      agriCrop: [
        {
          id: 'urn:ngsi-ld:AgriCrop:2',
          crop: olive,
          agriParcel: [
            {
              id: 'urn:ngsi-ld:AgriParcel:3',
              name: 'Los Olivos',
              sigpac: [{ idcp: 4, ...oliveEnclosure, dimension: '4.12' }],
            },
          ],
        },
      ],
      regionalAttributes: [
        { rea: '46000000001', address: { province: 'Valencia', community: { name: 'Comunitat Valenciana' } } },
      ],
    },
  ] satisfies z.output<typeof farmSchema>[],
};

export const listIdcpExample = {
  query: { agrifarmId: AGRIFARM },
  request: { type: 'IDCP', crop: olive, regionalAttributes: [{ sigpac: [oliveEnclosure] }] } satisfies z.input<
    typeof listIdcpBodySchema
  >,
  response: {
    agrifarmId: AGRIFARM,
    crop: { typecrop: { id: '101', name: 'OLIVO' }, code: 2001, name: 'BLANQUETA' },
    idcp: [{ idcp: 4, ...oliveEnclosure }],
  } satisfies z.output<typeof idcpSetSchema>,
};

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
  seclimit: '0',
  machine: [],
  manual: true,
  advisor: null,
  phenology: null,
  idcp: ['4'],
  applicator: treatment.applicator,
  regionalAttributes: [],
} satisfies z.output<typeof phytoRecordSchema>;

export const registerExample = { query: { agrifarmId: AGRIFARM }, request: treatment, response: [record] };

export const listExample = { query: { agrifarmId: AGRIFARM, page: 1, page_size: 20 }, response: [record] };

export const exportExample = {
  query: { agrifarmId: AGRIFARM },
  request: [{ id: RECORD }] satisfies z.input<typeof exportBodySchema>,
  response: {
    id: 1,
    status: 'Iniciando',
    message:
      'The export runs in the background: follow it with jobstatus and jobresult. An e-mail with the outcome is sent when it finishes.',
  } satisfies z.output<typeof exportResponseSchema>,
};

export const jobStatusExample = {
  query: { jobId: 1 },
  response: {
    type: 'JobAsync',
    id: '1',
    inidate: '22-11-2026 16:09:11',
    status: { type: 'JobStatus', id: '3', name: 'FinalizadoCompleto' },
    percentage: 100,
    error: null,
  } satisfies z.output<typeof jobSchema>,
};

export const jobResultExample = {
  query: { jobId: 1 },
  response: { data: [{ result: 'ok', id: 1 }], error: [] } satisfies z.output<typeof jobResultSchema>,
};

const efficacyLater = {
  type: 'TypeEfficacy',
  id: '2',
  name: 'Muy buena',
  detail: 'sin negrilla a los 10 días',
} as const;

export const amendExample = {
  params: { id: RECORD },
  query: { agrifarmId: AGRIFARM },
  request: { efficacy: efficacyLater } satisfies z.input<typeof phytoPatchSchema>,
  response: [{ ...record, efficacy: efficacyLater, dateModified: '01-12-2026 09:30:00' }] satisfies z.output<
    typeof phytoRecordSchema
  >[],
};

export const deleteExample = { params: { id: RECORD }, query: { agrifarmId: AGRIFARM }, response: undefined };

export const historyExample = {
  params: { id: RECORD },
  query: { agrifarmId: AGRIFARM },
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
