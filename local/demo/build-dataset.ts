import { Dataset } from '../../shared/backoffice/dataset-schema';
import { Farm } from '../../shared/farms/farm';
import { client, enclosure } from '../fixtures/dataset';

/**
 * The demo back-office dataset loaded by `npm start`. Products, holders, substances, dose ranges, units and expiry
 * dates are facts from the official register of phytosanitary products (public snapshot of 2026-08-14, the rows
 * test/unit/catalog-fixtures.ts carries in the register's own layout); pest codes, crop codes and unit codes are from
 * the official SIEX catalogues. Application counts, intervals and months are not in that snapshot: where a use has
 * them, they are label-style values an operator would enter; where it has none, it is as the register has it,
 * authorised in every month. TOPIK's 170-200 cc/ha is written as 0.17-0.2 L/ha because SIEX has no cc/ha unit. The
 * ROPO holders, farms, keys and DGC codes (REA crop-geographic data) are invented.
 *
 * Any day of the year works (test/heavy/demo-any-day.test.ts plays the README's flow and a batch of 20 at 12 dates):
 * every crop of the demo farms has a product whose use names no months (vine: AZUFRE LIQUIDO 800 G/L; olive:
 * MICROTHIOL SPECIAL DISPERSS; wheat: FLUXYR 200 EC), and the first farm has 21 enclosures, so a batch of 20 puts one
 * treatment on each but the one the flow treated, instead of two of one product on one enclosure, which the interval
 * rules refuse.
 *
 * `local/demo/dataset.json` is this function's output (a unit test keeps the two identical).
 */

/** The two ERP clients of the walkthrough, with their keys and the farms each may act for. */
const CLIENTS: Dataset['clients'] = [
  client({
    id: 'agrosoft-levante',
    name: 'Agrosoft Levante ERP',
    email: 'integraciones@agrosoft-levante.example',
    sidKey: 'demo-sid-agrosoft-levante-7f3a9c2e51d84b06',
    apiKey: 'demo-api-agrosoft-levante-0b8e6d4f2a917c35',
    farms: ['46000000001', '46000000002'],
  }),
  client({
    id: 'campo-digital',
    name: 'Campo Digital Castilla',
    email: 'soporte@campodigital.example',
    sidKey: 'demo-sid-campo-digital-3c1e8a7b94f20d56',
    apiKey: 'demo-api-campo-digital-e5a2f9071b6c48d3',
    farms: ['47000000003'],
  }),
];

/** The applicators and their ROPO cards: one suspended, one expired, one adviser only (the card refusals' cases). */
const APPLICATORS: Dataset['applicators'] = [
  {
    nif: '23456789D',
    name: 'Jorge Sanchis Ferrer',
    ropo: 'ES-46001234',
    levels: ['basico'],
    validUntil: '15-03-2029',
    suspended: false,
  },
  {
    nif: '12345678Z',
    name: 'Ana Pérez Martínez',
    ropo: 'ES-46000123',
    levels: ['cualificado'],
    validUntil: '31-12-2030',
    suspended: false,
  },
  {
    nif: '34567890V',
    name: 'Miguel Ángel Ortega Ruiz',
    ropo: 'ES-47000456',
    levels: ['cualificado', 'fumigador'],
    validUntil: '30-06-2028',
    suspended: false,
  },
  {
    nif: 'X1234567L',
    name: 'Radu Popescu',
    ropo: 'ES-47000789',
    levels: ['basico', 'piloto'],
    validUntil: '31-10-2031',
    suspended: false,
  },
  {
    nif: '45678901G',
    name: 'Lucía Gómez Navarro',
    ropo: 'ES-46009876',
    levels: ['cualificado'],
    validUntil: '31-12-2029',
    suspended: true,
  },
  {
    nif: '56789012B',
    name: 'Francisco Torres Gil',
    ropo: 'ES-46005555',
    levels: ['basico'],
    validUntil: '31-03-2026',
    suspended: false,
  },
  {
    nif: '67890123B',
    name: 'Elena Martí Soler',
    ropo: 'ES-46000777',
    levels: ['asesor'],
    validUntil: '30-09-2031',
    suspended: false,
  },
];

/** Real products of the official register (see above), each with its authorised uses. */
const PRODUCTS: Dataset['products'] = [
  {
    code: 'ES-11179',
    name: 'MICROTHIOL SPECIAL DISPERSS',
    type: { id: 1, name: 'Fungicida' },
    holder: { name: 'UPL IBERIA, S.A.', nif: '' },
    substance: { name: 'AZUFRE 80% [WG] P/P' },
    registered: '14-06-2001',
    expires: '31-07-2027',
    lastUse: '',
    requiredLevel: 'basico',
    uses: [
      {
        cropTypeIds: ['102', '103'],
        pest: { code: 148, kind: 'enfermedad', name: 'Oídio de la vid, Erysiphe necator' },
        doseMin: 0.25,
        doseMax: 0.8,
        unit: { code: 14, symbol: '%' },
        maxApplications: 6,
        minIntervalDays: 7,
        safetyDays: 'NP',
        months: [3, 4, 5, 6, 7, 8, 9],
      },
      {
        cropTypeIds: ['101'],
        pest: { code: 42, kind: 'enfermedad', name: 'Negrilla, fumagina, Capnodium elaeophilum' },
        doseMin: 0.25,
        doseMax: 0.75,
        unit: { code: 14, symbol: '%' },
        maxApplications: 3,
        minIntervalDays: 10,
        safetyDays: 'NP',
      },
    ],
  },
  {
    code: 'ES-19534',
    name: 'FAMOLINS 80%',
    type: { id: 1, name: 'Fungicida' },
    holder: { name: 'JULIO CABRERO Y CIA, S.L.', nif: '' },
    substance: { name: 'AZUFRE 80% [DP] P/P' },
    registered: '22-01-1997',
    expires: '31-07-2027',
    lastUse: '',
    requiredLevel: 'basico',
    uses: [
      {
        cropTypeIds: ['102', '103'],
        pest: { code: 148, kind: 'enfermedad', name: 'Oídio de la vid, Erysiphe necator' },
        doseMin: 20,
        doseMax: 30,
        unit: { code: 17, symbol: 'kg/ha' },
        maxApplications: 4,
        minIntervalDays: 10,
        safetyDays: 1,
        months: [4, 5, 6, 7, 8],
      },
    ],
  },
  {
    code: 'ES-19616',
    name: 'POLTIGLIA 20 WP',
    type: { id: 1, name: 'Fungicida' },
    holder: { name: 'MANICA, SPA', nif: '' },
    substance: { name: 'SULFATO CUPROCALCICO 20% (EXPR. EN CU) [WP] P/P' },
    registered: '09-05-1997',
    expires: '30-06-2027',
    lastUse: '',
    requiredLevel: 'basico',
    uses: [
      {
        cropTypeIds: ['101'],
        pest: { code: 532, kind: 'enfermedad', name: 'Repilo del olivo, Venturia oleaginea' },
        doseMin: 0.6,
        doseMax: 0.62,
        unit: { code: 14, symbol: '%' },
        maxApplications: 4,
        minIntervalDays: 14,
        safetyDays: 14,
        months: [1, 2, 3, 4, 5, 9, 10, 11, 12],
      },
    ],
  },
  {
    code: 'ES-19548',
    name: 'TOPIK 24 EC',
    type: { id: 2, name: 'Herbicida' },
    holder: { name: 'ADAMA Agriculture España S.A.', nif: '' },
    substance: { name: 'CLODINAFOP-PROPARGIL 24% [EC] P/V' },
    registered: '26-02-1997',
    expires: '31-07-2027',
    lastUse: '',
    requiredLevel: 'cualificado',
    uses: [
      {
        cropTypeIds: ['1', '3'],
        pest: { code: 141, kind: 'mala_hierba', name: 'Avenas locas, Avena spp.' },
        doseMin: 0.17,
        doseMax: 0.2,
        unit: { code: 18, symbol: 'L/ha' },
        maxApplications: 1,
        months: [1, 2, 3, 4, 11, 12],
      },
    ],
  },
  {
    code: 'ES-25589',
    name: 'FLUXYR 200 EC',
    type: { id: 2, name: 'Herbicida' },
    holder: { name: 'UPL BENELUX B.V.', nif: '' },
    substance: { name: 'FLUROXIPIR 20% (ESTER METILHEPTIL) [EC] P/V' },
    registered: '15-02-2017',
    expires: '15-02-2027',
    lastUse: '',
    requiredLevel: 'basico',
    uses: [
      {
        cropTypeIds: ['1', '3', '5', '6', '8'],
        pest: { code: 2, kind: 'mala_hierba', name: 'Dicotiledóneas, malas hierbas de hoja ancha' },
        doseMin: 0.75,
        doseMax: 1,
        unit: { code: 18, symbol: 'L/ha' },
        maxApplications: 1,
        safetyDays: 15,
      },
    ],
  },
  {
    code: 'ES-19580',
    name: 'BETOSIP SE',
    type: { id: 2, name: 'Herbicida' },
    holder: { name: 'BAYER CROPSCIENCE, S.L.', nif: '' },
    substance: { name: 'FENMEDIFAM 16% [SE] P/V' },
    registered: '30-04-1997',
    expires: '30-09-2026',
    lastUse: '',
    requiredLevel: 'basico',
    uses: [
      {
        cropTypeIds: ['590', '589', '327'],
        pest: { code: 1, kind: 'mala_hierba', name: 'Malas hierbas' },
        doseMin: 1.5,
        doseMax: 2,
        unit: { code: 18, symbol: 'L/ha' },
      },
    ],
  },
  {
    code: 'ES-24138',
    name: 'AZUFRE LIQUIDO 800 G/L',
    type: { id: 1, name: 'Fungicida' },
    holder: { name: 'AFEPASA GLOBAL, S.A.U.', nif: '' },
    substance: { name: 'AZUFRE 80% [SC] P/V' },
    registered: '01-03-2004',
    expires: '31-07-2027',
    lastUse: '',
    requiredLevel: 'basico',
    uses: [
      {
        cropTypeIds: ['102'],
        pest: { code: 148, kind: 'enfermedad', name: 'Oídio de la vid, Erysiphe necator' },
        doseMin: 4,
        doseMax: 4,
        unit: { code: 18, symbol: 'L/ha' },
        safetyDays: 'NP',
      },
    ],
  },
  // Issue 34: a post-harvest wax for packing houses (its one use on citrus produce, 1 l/Tm, here as L/kg) and a store
  // insecticide (its use on "Almacenes", 40-60 cc/100 m2, as cc/m2), as the register import scopes them.
  {
    code: 'ES-16232',
    name: 'CITRASHINE N-IMZ',
    type: { id: 1, name: 'Fungicida' },
    holder: { name: 'DECCO IBERICA POST COSECHA S.A.U.', nif: '' },
    substance: { name: 'IMAZALIL 0,2% [EW] P/V' },
    registered: '10-10-1983',
    expires: '31-05-2027',
    lastUse: '',
    requiredLevel: 'basico',
    uses: [
      {
        cropTypeIds: ['206', '356', '430', '435'],
        pest: { code: 5, kind: 'enfermedad', name: 'Enfermedades post-cosecha (hongos)' },
        doseMin: 0.001,
        doseMax: 0.001,
        unit: { code: 39, symbol: 'L/kg' },
        safetyDays: 'NP',
        scope: 'postharvest',
      },
    ],
  },
  {
    code: 'ES-25710',
    name: 'K-OBIOL EC 25',
    type: { id: 3, name: 'Insecticida' },
    holder: { name: '2022 Environmental Science FR S.A.S.', nif: '' },
    substance: { name: 'DELTAMETRIN 2,5% (POS) [EC] P/V' },
    registered: '02-02-2015',
    expires: '30-06-2028',
    lastUse: '',
    requiredLevel: 'basico',
    uses: [
      {
        cropTypeIds: [],
        pest: { code: 33, kind: 'plaga', name: 'Insectos de almacén' },
        doseMin: 0.4,
        doseMax: 0.6,
        unit: { code: 78, symbol: 'cc/m2' },
        safetyDays: 'NP',
        scope: 'facility',
      },
    ],
  },
  // Issue 34: a seed dressing, its register use on "Simiente de trigo" (2 l/Tm, as L/kg) for the crops PROD_VEGETAL
  // 199 pairs with that seed, as the register import scopes it ("Ttos. Para semillas").
  {
    code: 'ES-00080',
    name: 'LATITUDE XL',
    type: { id: 1, name: 'Fungicida' },
    holder: { name: 'CERTIS BELCHIM B.V.', nif: '' },
    substance: { name: 'SILTIOFAM 12,5% [FS] P/P' },
    registered: '29-04-2015',
    expires: '30-06-2033',
    lastUse: '',
    requiredLevel: 'basico',
    uses: [
      {
        cropTypeIds: ['1', '2', '3', '325', '393', '394'],
        pest: { code: 212, kind: 'enfermedad', name: 'Mal del pie, pie negro, Gaeumannomyces graminis' },
        doseMin: 0.002,
        doseMax: 0.002,
        unit: { code: 39, symbol: 'L/kg' },
        safetyDays: 'NP',
        scope: 'seed',
      },
    ],
  },
];

/** A small farm of vineyard and olive grove, 21 enclosures, one in a nitrate-vulnerable zone. */
function requenaFarm(campaign: number): Farm {
  return {
    rea: '46000000001',
    codigoRea: 'ES460000000001',
    year: campaign,
    name: 'Finca El Olivar',
    description: 'Viña y olivar de secano',
    locality: 'Requena',
    country: 'ES',
    province: 'Valencia',
    community: { code: '10', name: 'Comunitat Valenciana' },
    owner: { name: 'Luis', surname: 'García Sanz', email: 'luis.garcia@example.org', nif: '71234567W' },
    // Its fertilizations say GestionSostInsu without each record having to (RD 1051/2022).
    sustainableInputs: true,
    crops: [
      {
        typecrop: { id: '102', name: 'VIÑA' },
        code: 1001,
        name: 'TEMPRANILLO',
        parcels: [
          {
            name: 'La Hoya',
            sigpac: [
              enclosure(12, 45, 1, { dimension: '2.35', dgc: '4600000007' }),
              // In a nitrate-vulnerable zone: livestock manure there is limited to 170 kg N/ha a campaign.
              enclosure(12, 45, 2, { dimension: '1.10', dgc: '4600000014', nitrateVulnerable: true }),
            ],
          },
          {
            name: 'El Pinar',
            sigpac: [enclosure(14, 7, 1, { dimension: '3.80', dgc: '4600000021' })],
          },
        ],
      },
      {
        typecrop: { id: '101', name: 'OLIVO' },
        code: 2001,
        name: 'BLANQUETA',
        parcels: [
          {
            name: 'Los Olivos',
            sigpac: [
              enclosure(15, 102, 3, { dimension: '4.12', dgc: '4600000028' }),
              enclosure(15, 102, 4, { dimension: '1.85', dgc: '4600000049' }),
              enclosure(15, 103, 1, { dimension: '2.60', dgc: '4600000056' }),
            ],
          },
          {
            name: 'Camino Hondo',
            sigpac: [
              enclosure(16, 8, 1, { dimension: '3.05', dgc: '4600000063' }),
              enclosure(16, 8, 2, { dimension: '0.95', dgc: '4600000070' }),
              enclosure(16, 9, 1, { dimension: '2.20', dgc: '4600000077' }),
            ],
          },
        ],
      },
      // Listed after the olive grove, so the enclosures above keep the idcp (1 to 4) the README's flow names.
      {
        typecrop: { id: '102', name: 'VIÑA' },
        code: 1002,
        name: 'BOBAL',
        parcels: [
          {
            name: 'El Cerrillo',
            sigpac: Array.from({ length: 12 }, (_, e) =>
              enclosure(18, 30 + Math.floor(e / 3), (e % 3) + 1, {
                dimension: (1.2 + (e % 5) * 0.35).toFixed(2),
                dgc: String(4600000084 + e * 7),
              }),
            ),
          },
        ],
      },
    ],
  };
}

/** A farm with `parcels` × `perParcel` enclosures of one crop, for benchmarks of large farms. */
function largeFarm(campaign: number): Farm {
  const parcels = Array.from({ length: 50 }, (_, p) => ({
    name: `Sector ${String(p + 1).padStart(2, '0')}`,
    sigpac: Array.from({ length: 100 }, (_, e) =>
      enclosure(10 + p, 100 + Math.floor(e / 4), (e % 4) + 1, {
        town: '258',
        dimension: (0.35 + ((p * 100 + e) % 17) * 0.05).toFixed(2),
        dgc: String(4625800000 + p * 100 + e),
      }),
    ),
  }));
  return {
    rea: '46000000002',
    codigoRea: 'ES460000000002',
    year: campaign,
    name: 'Cooperativa Vinícola Utiel-Requena',
    description: 'Viñedo en espaldera de socios de la cooperativa (5.000 recintos)',
    locality: 'Utiel',
    country: 'ES',
    province: 'Valencia',
    community: { code: '10', name: 'Comunitat Valenciana' },
    owner: {
      name: 'Cooperativa Vinícola',
      surname: 'Utiel-Requena',
      email: 'tecnico@coop-utiel.example',
      nif: '87654321X',
    },
    sustainableInputs: true,
    crops: [{ typecrop: { id: '102', name: 'VIÑA' }, code: 1002, name: 'BOBAL', parcels }],
  };
}

/** A dryland cereal farm in Valladolid, of the other client. */
function paramosFarm(campaign: number): Farm {
  return {
    rea: '47000000003',
    codigoRea: 'ES470000000003',
    year: campaign,
    name: 'Granja Los Páramos',
    description: 'Cereal de secano en rotación',
    locality: 'Medina de Rioseco',
    country: 'ES',
    province: 'Valladolid',
    community: { code: '07', name: 'Castilla y León' },
    owner: { name: 'María', surname: 'Alonso Pérez', email: 'maria.alonso@example.org', nif: '22334455Y' },
    // Says nothing of sustainable input management: its fertilizations wait for a record to say it (exportBlockers).
    crops: [
      {
        typecrop: { id: '1', name: 'TRIGO BLANDO' },
        code: 3001,
        name: 'FILON',
        parcels: [
          {
            name: 'Páramo Alto',
            sigpac: [
              enclosure(3, 21, 1, { prov: '47', town: '86', dimension: '12.40', dgc: '4600000035' }),
              enclosure(3, 22, 1, { prov: '47', town: '86', dimension: '8.75', dgc: '4600000042' }),
              enclosure(3, 23, 1, { prov: '47', town: '86', dimension: '10.15', dgc: '4700000011' }),
              enclosure(3, 23, 2, { prov: '47', town: '86', dimension: '6.30', dgc: '4700000028' }),
            ],
          },
        ],
      },
    ],
  };
}

/**
 * The campaign local/demo/dataset.json is written for. `npm start` loads the demo for the campaign of today instead
 * (buildDemoDataset(currentCampaign())), so the walkthrough works whatever the year; the file stays as committed.
 */
export const DEMO_FILE_CAMPAIGN = 2026;

export interface DemoDatasetOptions {
  /**
   * false: no clients, for a dataset on the internet (the hosted sandbox, docs/sandbox.md), where the demo's keys,
   * public in this repository, must open nothing; each ERP team is added as a client of its own, with hashed keys.
   */
  clients?: boolean;
}

/** The demo: its clients, applicators and real register products, and its farms in the campaign given. */
export function buildDemoDataset(campaign: number = DEMO_FILE_CAMPAIGN, options: DemoDatasetOptions = {}): Dataset {
  // A copy: callers add their own clients and products to what they get (bench/fixtures.ts).
  return structuredClone({
    clients: options.clients === false ? [] : CLIENTS,
    applicators: APPLICATORS,
    products: PRODUCTS,
    farms: [requenaFarm(campaign), largeFarm(campaign), paramosFarm(campaign)],
  });
}
