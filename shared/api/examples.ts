import { z } from 'zod';
import { exportBodySchema, exportResponseSchema, jobResultSchema, jobSchema } from './export-schemas';
import { farmSchema, idcpSetSchema, listIdcpBodySchema } from './farm-schemas';
import { recordVersionSchema } from './history-schemas';
import { phytoPatchSchema, phytoRecordViewSchema, phytoRequestSchema } from './phyto-schemas';
import { safeHarvestSchema } from './harvest-schemas';
import { fertilizationPatchSchema, fertilizeRecordViewSchema, fertilizeRequestSchema } from './fertilization-schemas';
import { applicatorCardSchema, catalogueProductSchema, cropProductSchema, siexEntrySchema } from './catalog-schemas';

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

export const registerExample = { query: { agrifarmId: AGRIFARM }, request: treatment, response: [record] };

export const registerBatchExample = {
  query: { agrifarmId: AGRIFARM },
  request: [treatment, { ...treatment, dose: 5 }],
  response: [
    { index: 0, status: 201, etag: '"1"', body: [record] },
    {
      index: 1,
      status: 422,
      body: {
        type: 'https://siex-gateway.dev/problems/422',
        title: 'Unprocessable Content',
        status: 422,
        detail: 'The application breaks the rules below; nothing was stored.',
        errors: [
          { code: 'DOSE_ABOVE_MAX', path: 'body.dose', message: 'dose 5 % is above the maximum 0.5 % for OLIVO' },
        ],
      },
    },
  ],
};

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
    typeof phytoRecordViewSchema
  >[],
};

export const safeHarvestExample = {
  query: { agrifarmId: AGRIFARM, date: '10-12-2026' },
  response: [
    {
      idcp: 4,
      crop: { typecrop: { id: '101', name: 'OLIVO' }, code: 2001, name: 'BLANQUETA' },
      earliestHarvest: '06-12-2026',
      safeOn: true,
      setBy: {
        record: 'urn:ngsi-ld:AgriPhytosanitary:2',
        product: { code: 'ES-19616', name: 'POLTIGLIA 20 WP' },
        applied: '22-11-2026',
        seclimit: '14',
      },
    },
  ] satisfies z.output<typeof safeHarvestSchema>[],
};

export const readExample = { params: { id: RECORD }, query: { agrifarmId: AGRIFARM }, response: [record] };

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

const percent = { code: 14, symbol: '%', name: 'porcentaje' };
const sootyMould = { kind: 'enfermedad', code: 42, name: 'Negrilla, fumagina, Capnodium elaeophilum' } as const;
const microthiol = {
  code: 'ES-11179',
  name: 'MICROTHIOL SPECIAL DISPERSS',
  holder: 'UPL IBERIA, S.A.',
  substance: 'AZUFRE 80% [WG] P/P',
  type: { id: 1, name: 'Fungicida' },
  registered: '14-06-2001',
  expires: '31-07-2027',
  lastUse: '',
  requiredLevel: 'basico',
} as const;
const microthiolOnOlive = {
  dose: { min: 0.25, max: 0.75, unit: percent },
  pests: [sootyMould],
  months: null,
  maxApplications: 3,
  minIntervalDays: 10,
  preHarvestDays: 'NP' as const,
};

export const catalogProductsExample = {
  query: { crop: '101', date: '21-11-2026', page: 1, page_size: 20 },
  response: [
    { ...microthiol, uses: [microthiolOnOlive] },
    {
      code: 'ES-19616',
      name: 'POLTIGLIA 20 WP',
      holder: 'MANICA, SPA',
      substance: 'SULFATO CUPROCALCICO 20% (EXPR. EN CU) [WP] P/P',
      type: { id: 1, name: 'Fungicida' },
      registered: '09-05-1997',
      expires: '30-06-2027',
      lastUse: '',
      requiredLevel: 'basico',
      uses: [
        {
          dose: { min: 0.6, max: 0.62, unit: percent },
          pests: [{ kind: 'enfermedad', code: 532, name: 'Repilo del olivo, Venturia oleaginea' }],
          months: [1, 2, 3, 4, 5, 9, 10, 11, 12],
          maxApplications: 4,
          minIntervalDays: 14,
          preHarvestDays: 14,
        },
      ],
    },
  ] satisfies z.output<typeof cropProductSchema>[],
};

export const catalogProductExample = {
  params: { code: 'ES-11179' },
  query: {},
  response: {
    ...microthiol,
    withdrawn: '',
    registerState: '',
    state: { on: '22-11-2026', standing: 'in-force', description: 'ES-11179 is in force until 31-07-2027' },
    uses: [
      {
        dose: { min: 0.25, max: 0.8, unit: percent },
        pests: [{ kind: 'enfermedad', code: 148, name: 'Oídio de la vid, Erysiphe necator' }],
        months: [3, 4, 5, 6, 7, 8, 9],
        maxApplications: 6,
        minIntervalDays: 7,
        preHarvestDays: 'NP' as const,
        scope: 'field' as const,
        crops: [
          { code: '102', name: 'VIÑA' },
          { code: '103', name: 'UVA DE MESA' },
        ],
      },
      { ...microthiolOnOlive, scope: 'field' as const, crops: [{ code: '101', name: 'OLIVO' }] },
    ],
  } satisfies z.output<typeof catalogueProductSchema>,
};

export const siexCatalogueExample = {
  params: { name: 'pests' },
  query: { date: '21-11-2026', page: 1, page_size: 2 },
  response: [
    {
      code: '1',
      name: 'Artrópodos',
      kind: 'plaga',
      scientific: 'Arthropoda',
      eppo: '1ARTHP',
      path: '6',
      parent: null,
      until: '',
      inForce: true,
    },
    {
      code: '2',
      name: 'Ácaros',
      kind: 'plaga',
      scientific: 'Acari',
      eppo: '1ACARO',
      path: '6.1',
      parent: '1',
      until: '',
      inForce: true,
    },
  ] satisfies z.output<typeof siexEntrySchema>[],
};

export const applicatorCardExample = {
  query: { ropo: 'ES-46000123', nif: '12345678Z' },
  response: {
    ropo: 'ES-46000123',
    levels: ['cualificado'],
    covers: ['basico', 'cualificado'],
    advisor: false,
    validUntil: '31-12-2030',
    expired: false,
    suspended: false,
  } satisfies z.output<typeof applicatorCardSchema>,
};

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

export const registerFertilizationExample = {
  query: { agrifarmId: AGRIFARM },
  request: manure,
  response: [fertilization],
};

export const listFertilizationExample = {
  query: { agrifarmId: AGRIFARM, page: 1, page_size: 20 },
  response: [fertilization],
};

export const readFertilizationExample = {
  params: { id: FERTILIZATION },
  query: { agrifarmId: AGRIFARM },
  response: [fertilization],
};

export const amendFertilizationExample = {
  params: { id: FERTILIZATION },
  query: { agrifarmId: AGRIFARM },
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

export const deleteFertilizationExample = {
  params: { id: FERTILIZATION },
  query: { agrifarmId: AGRIFARM },
  response: undefined,
};

export const fertilizationHistoryExample = {
  params: { id: FERTILIZATION },
  query: { agrifarmId: AGRIFARM },
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
