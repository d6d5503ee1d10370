import { z } from 'zod';
import { exportBodySchema, exportResponseSchema, jobResultSchema, jobSchema } from './export-schemas';
import { farmSchema, idcpSetSchema, listIdcpBodySchema } from './farm-schemas';
import { applicatorCardSchema, catalogueProductSchema, cropProductSchema, siexEntrySchema } from './catalog-schemas';

/**
 * Worked examples for the OpenAPI document: the README's flow with the demo data (`npm start`), as the gateway
 * answered it. Typed by the contracts' schemas, and parsed by them in a unit test, so an example cannot drift from
 * what the gateway accepts and answers. Each record kind's are in its folder (`shared/<kind>/wire-examples.ts`).
 */
export const DEMO_FARM = 'urn:ngsi-ld:AgriFarm:1';

/**
 * A batch's refused item as the examples show it: the item's index and the problem details a registration breaking
 * the rules answers (422), every violation with its path as if the item had been sent alone.
 */
export function refusedItem(
  index: number,
  errors: { code: string; path: string; message: string }[],
  // The status the errors earn: 422 for a rule, 400 for an applicator or laboratory's NIF (shared/http/error-status.ts).
  status: 400 | 422 = 422,
) {
  return {
    index,
    status,
    body: {
      type: `https://siex-gateway.dev/problems/${status}`,
      title: status === 422 ? 'Unprocessable Content' : 'Bad Request',
      status,
      detail: 'The application breaks the rules below; nothing was stored.',
      errors,
    },
  };
}
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
      id: DEMO_FARM,
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
  query: { agrifarmId: DEMO_FARM },
  request: { type: 'IDCP', crop: olive, regionalAttributes: [{ sigpac: [oliveEnclosure] }] } satisfies z.input<
    typeof listIdcpBodySchema
  >,
  response: {
    agrifarmId: DEMO_FARM,
    crop: { typecrop: { id: '101', name: 'OLIVO' }, code: 2001, name: 'BLANQUETA' },
    idcp: [{ idcp: 4, ...oliveEnclosure }],
  } satisfies z.output<typeof idcpSetSchema>,
};

export const exportExample = {
  query: { agrifarmId: DEMO_FARM },
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
  response: { data: [{ result: 'ok', id: 1, urn: 'urn:ngsi-ld:AgriPhytosanitary:1' }], error: [] } satisfies z.output<
    typeof jobResultSchema
  >,
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
