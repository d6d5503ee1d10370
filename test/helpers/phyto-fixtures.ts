import { DateTime } from 'luxon';
import { buildDemoDataset } from '../../local/demo/build-dataset';
import { PhytoRequest } from '../../shared/phyto/wire';
import { Applicator } from '../../shared/catalog/applicator';
import { Product, ProductUse } from '../../shared/catalog/product';
import { SiexCodes } from '../../shared/catalog/siex-codes/siex-codes';
import { DATE_TIME_FORMAT, parseDateTime, ZONE } from '../../shared/domain/dates';
import { FarmIndex, FarmIndexDoc } from '../../shared/farms/farm-index';
import { daysWindow } from '../../shared/domain/backdate-window';
import { RuleContext } from '../../shared/phyto/rule-context';
import { DayCounts, dayOf, withApplication } from '../../shared/phyto/application-history';
import { treatmentFromWire } from '../../shared/phyto/wire-mapper';
import { sigpacCode } from '../../shared/farms/sigpac';
import { officialCatalogues } from '../unit/catalog-fixtures';

/**
 * Pure builders for the phytosanitary tests (issue 3): products modelled on the demo dataset's real register entries,
 * ROPO cards, a small hand-written farm index, requests and a RuleContext with a fixed `now`. Nothing here touches
 * storage; the e2e and integration helpers (phyto-stack.ts) reuse the product and card builders with their own codes.
 */

/** A Madrid wall-clock time `DD-MM-YYYY HH:mm:ss` as a luxon DateTime; throws on a time that does not exist. */
export function madrid(text: string): DateTime {
  const d = parseDateTime(text);
  if (!d) throw new Error(`not a Madrid local time: ${text}`);
  return d;
}

/** The API's `DD-MM-YYYY HH:mm:ss` of an instant, in Madrid. */
export function apiTime(d: DateTime): string {
  return d.setZone(ZONE).toFormat(DATE_TIME_FORMAT);
}

// ---------------------------------------------------------------------------------------------------------------
// Products, like the demo's (local/demo/build-dataset.ts): real holders, substances, dose ranges and units.

type ProductOverrides = Partial<Omit<Product, 'uses'>> & { uses?: ProductUse[] };

let demoProducts: Product[] | undefined;

/** A product of the demo dataset, a fresh copy each time (tests change them). */
function demoProduct(code: string): Product {
  demoProducts ??= buildDemoDataset().products;
  const product = demoProducts.find((p) => p.code === code);
  if (!product) throw new Error(`no demo product ${code}`);
  return structuredClone(product);
}

/** MICROTHIOL SPECIAL DISPERSS: sulphur, 0.25-0.8 % on vine (months 3-9, 6 per campaign, 7 days apart), olive 0.25-0.75 %. */
export function microthiol(o: ProductOverrides = {}): Product {
  return { ...demoProduct('ES-11179'), ...o };
}

/** FAMOLINS 80%: sulphur dust, 20-30 kg/ha on vine, months 4-8, 4 per campaign, 10 days apart, 1 day safety. */
export function famolins(o: ProductOverrides = {}): Product {
  return { ...demoProduct('ES-19534'), ...o };
}

/** TOPIK 24 EC: herbicide for wheat and barley, 0.17-0.2 L/ha, once per campaign, needs a `cualificado` card. */
export function topik(o: ProductOverrides = {}): Product {
  return { ...demoProduct('ES-19548'), ...o };
}

/** POLTIGLIA 20 WP (copper) as the demo has it: olive against leaf spot, 0.6-0.62 %, 14 days apart, 14 days' safety. */
export function poltiglia(o: ProductOverrides = {}): Product {
  return { ...demoProduct('ES-19616'), ...o };
}

/** POLTIGLIA 20 WP (copper) as a label without any limit of count, interval or months, on vine and olive. */
export function poltigliaUnlimited(o: ProductOverrides = {}): Product {
  const demo = demoProduct('ES-19616');
  const { pest, doseMin, doseMax, unit } = demo.uses[0];
  return { ...demo, uses: [{ cropTypeIds: ['101', '102'], pest, doseMin, doseMax, unit }], ...o };
}

// ---------------------------------------------------------------------------------------------------------------
// ROPO cards (the demo's holders).

export const CARDS = {
  basico: {
    nif: '23456789D',
    name: 'Jorge Sanchis Ferrer',
    ropo: 'ES-46001234',
    levels: ['basico'],
    validUntil: '15-03-2029',
    suspended: false,
  },
  cualificado: {
    nif: '12345678Z',
    name: 'Ana Pérez Martínez',
    ropo: 'ES-46000123',
    levels: ['cualificado'],
    validUntil: '31-12-2030',
    suspended: false,
  },
  fumigador: {
    nif: '34567890V',
    name: 'Miguel Ángel Ortega Ruiz',
    ropo: 'ES-47000456',
    levels: ['fumigador'],
    validUntil: '30-06-2028',
    suspended: false,
  },
  suspended: {
    nif: '45678901G',
    name: 'Lucía Gómez Navarro',
    ropo: 'ES-46009876',
    levels: ['cualificado'],
    validUntil: '31-12-2029',
    suspended: true,
  },
  expiring: {
    nif: '56789012B',
    name: 'Francisco Torres Gil',
    ropo: 'ES-46005555',
    levels: ['basico'],
    validUntil: '31-03-2026',
    suspended: false,
  },
  advisor: {
    nif: '67890123B',
    name: 'Elena Martí Soler',
    ropo: 'ES-46000777',
    levels: ['asesor'],
    validUntil: '30-09-2031',
    suspended: false,
  },
  advisorExpiring: {
    nif: '78901234X',
    name: 'Vicente Llorens Pla',
    ropo: 'ES-46000778',
    levels: ['cualificado', 'asesor'],
    validUntil: '31-03-2026',
    suspended: false,
  },
  advisorSuspended: {
    nif: '89012345E',
    name: 'Carmen Ibáñez Roig',
    ropo: 'ES-46000779',
    levels: ['asesor'],
    validUntil: '30-09-2031',
    suspended: true,
  },
} satisfies Record<string, Applicator>;

// ---------------------------------------------------------------------------------------------------------------
// A farm index written by hand: vine (102) on idcps 101, 102 and 103, olive (101) on 201, wheat (1) on 301.

/** A Valencian farm campaign's header, as the farm index keeps it: every field SIEX needs of the holding. */
export function farmMeta(o: Partial<FarmIndexDoc['meta']> = {}): FarmIndexDoc['meta'] {
  return {
    farmId: 1,
    rea: '46000000001',
    codigoRea: 'ES460000000001',
    year: 2026,
    name: 'Finca',
    province: 'Valencia',
    communityCode: '10',
    communityName: 'Comunitat Valenciana',
    ownerNif: '71234567W',
    sustainableInputs: true,
    dateCreated: '01-01-2026 00:00:00',
    ...o,
  };
}

export function farmIndexDoc(rea = 'RULES0001'): FarmIndexDoc {
  const enc = (pol: string, parc: string, encl: string) => ({
    prov: '46',
    town: '213',
    aggr: '0',
    zone: '0',
    pol,
    parc,
    enc: encl,
  });
  return {
    meta: farmMeta({ farmId: 4242, rea, codigoRea: 'ES460000004242', name: 'Finca de reglas' }),
    crops: [
      { cropId: 11, typecropId: '102', typecropName: 'VIÑA', code: 1001, name: 'TEMPRANILLO' },
      { cropId: 12, typecropId: '101', typecropName: 'OLIVO', code: 2001, name: 'BLANQUETA' },
      { cropId: 13, typecropId: '1', typecropName: 'TRIGO BLANDO', code: 3001, name: 'FILON' },
    ],
    idcps: [
      { idcp: 101, crop: 0, parcelId: 21, parcelName: 'La Hoya', dimension: '2.35', ...enc('12', '45', '1') },
      { idcp: 102, crop: 0, parcelId: 21, parcelName: 'La Hoya', dimension: '1.10', ...enc('12', '45', '2') },
      { idcp: 103, crop: 0, parcelId: 22, parcelName: 'El Pinar', dimension: '3.80', ...enc('14', '7', '1') },
      { idcp: 201, crop: 1, parcelId: 23, parcelName: 'Los Olivos', dimension: '4.12', ...enc('15', '102', '3') },
      { idcp: 301, crop: 2, parcelId: 24, parcelName: 'Páramo Alto', dimension: '12.40', ...enc('3', '21', '1') },
    ],
  };
}

export const VINE = ['101', '102', '103'];
export const OLIVE = '201';
export const WHEAT = '301';

// ---------------------------------------------------------------------------------------------------------------
// SIEX codes: the official catalogues the project carries, and one withdrawn efficacy code.

let siexCodes: SiexCodes | undefined;

/**
 * The official catalogues (units with their dimensions, the four pest catalogues with their groups, machine types,
 * phenological stages), plus efficacy 9 "Retirada", withdrawn on 01-01-2026, to test validity by date.
 */
export function testSiexCodes(): SiexCodes {
  const official = officialCatalogues();
  siexCodes ??= SiexCodes.from({
    ...official,
    EFICACIA_TRATAMIENTO: [
      ...(official.EFICACIA_TRATAMIENTO ?? []),
      { code: '9', name: 'Retirada', from: '2023-02-01', modified: '', until: '2026-01-01' },
    ],
  });
  return siexCodes;
}

// ---------------------------------------------------------------------------------------------------------------
// Requests and the rule context.

/** A treatment request that names its product (the wire's subtype, dose and measure are absent for a measure alone). */
export type ProductRequest = PhytoRequest & Required<Pick<PhytoRequest, 'subtype' | 'dose' | 'measure'>>;

/** MICROTHIOL at 0.5 % on the first vine enclosure by the `basico` card holder, on 14-05-2026 10:00 (Madrid). */
export function phytoRequest(o: Partial<PhytoRequest> = {}): ProductRequest {
  return {
    type: 'AgriPhytosanitary',
    dateApplication: '14-05-2026 10:00:00',
    subtype: { type: 'TypePhytosanitary', name: 'MICROTHIOL SPECIAL DISPERSS', code: 'ES-11179' },
    dose: 0.5,
    measure: { type: 'Measure', name: 'Porcentaje', symbol: '%', code: 14 },
    idcp: ['101'],
    applicator: { user: { type: 'UserMetadata', nif: CARDS.basico.nif, ropo: CARDS.basico.ropo } },
    ...o,
  };
}

export const UNITS = {
  kgHa: { type: 'Measure', name: 'Kilogramos por hectárea', symbol: 'kg/ha', code: 17 },
  gHa: { type: 'Measure', name: 'Gramos por hectárea', symbol: 'g/ha', code: 49 },
  tHa: { type: 'Measure', name: 'Toneladas por hectárea', symbol: 't/ha', code: 29 },
  lHa: { type: 'Measure', name: 'Litros por hectárea', symbol: 'L/ha', code: 18 },
  percent: { type: 'Measure', name: 'Porcentaje', symbol: '%', code: 14 },
  gHl: { type: 'Measure', name: 'Gramos por hectolitro', symbol: 'g/hL', code: 65 },
  ccHl: { type: 'Measure', name: 'Centímetros cúbicos por hectolitro', symbol: 'cc/hL', code: 64 },
} as const satisfies Record<string, PhytoRequest['measure']>;

export interface ContextOptions {
  request?: Partial<PhytoRequest>;
  /** Madrid wall-clock time of the check; default 15-05-2026 12:00:00. */
  now?: string;
  maxBackdateDays?: number;
  /** The catalog's products by code (default: the four demo-like products above). */
  products?: Product[];
  applicators?: Applicator[];
  /** Stored applications of the product per idcp, as Madrid wall-clock times. */
  history?: Record<number, string[]>;
  /** The same for the products of the request's mix, by product code. */
  mixHistory?: Record<string, Record<number, string[]>>;
  farm?: FarmIndexDoc;
}

const DEFAULT_NOW = '15-05-2026 12:00:00';

/** Stored applications at these Madrid wall-clock times, as the history of one enclosure holds them. */
export function priorApplications(times: string[]): DayCounts {
  return times.reduce((days: DayCounts, t) => withApplication(days, dayOf(madrid(t)), 1), {});
}

/** The rule context of a request (`request`, the wire form it was mapped from, for tests that build on it). */
export function ruleContext(o: ContextOptions = {}): RuleContext & { request: ProductRequest } {
  const request = phytoRequest(o.request);
  const products = new Map(
    (o.products ?? [microthiol(), famolins(), topik(), poltigliaUnlimited()]).map((p) => [p.code, p]),
  );
  const cards = new Map((o.applicators ?? Object.values(CARDS)).map((a) => [a.ropo, a]));
  const codes = testSiexCodes();
  // Unless a test gives its own farm, the farm is of the application's campaign (OUTSIDE_CAMPAIGN has tests of its own).
  const appliedAt = madrid(request.dateApplication);
  const doc = o.farm ?? farmIndexDoc();
  const farm = new FarmIndex(o.farm ? doc : { ...doc, meta: { ...doc.meta, year: appliedAt.year } });
  const historyOf = (byIdcp: Record<number, string[]> = {}) =>
    new Map(
      Object.entries(byIdcp).map(([idcp, times]) => [
        sigpacCode(farm.byIdcp.get(Number(idcp))!),
        priorApplications(times),
      ]),
    );
  return {
    request,
    treatment: treatmentFromWire(request),
    appliedAt,
    now: madrid(o.now ?? DEFAULT_NOW),
    window: daysWindow(o.maxBackdateDays ?? 7),
    farm,
    product: products.get(request.subtype.code),
    applicator: cards.get(request.applicator.user.ropo),
    advisor: request.advisor && cards.get(request.advisor.ropo),
    history: historyOf(o.history),
    ...(request.mix
      ? {
          mixed: request.mix.map((m) => ({
            product: products.get(m.subtype.code),
            history: historyOf(o.mixHistory?.[m.subtype.code]),
          })),
        }
      : {}),
    codeInForce: (catalogue, code, on) => codes.isValid(catalogue, code, on),
    codes,
  };
}
