import { DateTime } from 'luxon';
import { z } from 'zod';
import {
  applicatorCardSchema,
  catalogueProductSchema,
  cropProductSchema,
  cropProductsQuerySchema,
  siexCatalogueQuerySchema,
  siexEntrySchema,
} from '../../shared/api/catalog-schemas';
import { VersionedValue } from '../../shared/cache/versioned-value';
import { answerCache } from '../../shared/catalog/answer-cache';
import {
  applicatorCard,
  CATALOGUE_MAX_AGE_SECONDS,
  catalogueProduct,
  CatalogueAnswer,
  CatalogueDeps,
  cropProducts,
  siexCatalogue,
} from '../../shared/catalog/catalogue-service';
import { CATALOGUE_DETAILS } from '../../shared/app/siex-catalogues';
import { ReferenceData } from '../../shared/catalog/reference-data';
import { SiexCodes } from '../../shared/catalog/siex-codes/siex-codes';
import { officialCatalogues } from './catalog-fixtures';
import { ZONE } from '../../shared/domain/dates';
import { DomainError, ErrorCode } from '../../shared/domain/errors';
import { PAGINATION_PAIR_MESSAGE } from '../../shared/domain/pagination';
import { statusOf } from '../../shared/http/error-status';
import { CARDS, famolins, microthiol, testSiexCodes, topik } from '../helpers/phyto-fixtures';

/**
 * The catalogue endpoints' use cases (issue 14): what each answers and refuses, and the validators and lifetimes of
 * their answers, over reference data in memory under a version the test controls.
 */
function setup(at = '2026-05-15T12:00:00', codes = testSiexCodes()) {
  let version = 'v1';
  let now = DateTime.fromISO(at, { zone: ZONE });
  const data: ReferenceData = {
    products: new Map([microthiol(), famolins(), topik({ expires: '31-12-2020' })].map((p) => [p.code, p])),
    applicators: new Map(Object.values(CARDS).map((a) => [a.ropo, a])),
    codes,
  };
  const deps: CatalogueDeps = {
    answers: answerCache(),
    details: CATALOGUE_DETAILS,
    reference: new VersionedValue(
      async () => version,
      async () => data,
      0,
    ),
    now: () => now,
  };
  return {
    deps,
    setVersion: (v: string) => (version = v),
    setNow: (iso: string) => (now = DateTime.fromISO(iso, { zone: ZONE })),
  };
}

/** An answer with its body parsed back, as typed as the contract's schema says it is. */
async function parsed<T extends z.ZodType>(schema: T, answer: Promise<CatalogueAnswer>) {
  const a = await answer;
  const body = () => a.body();
  return {
    ...a,
    total: () => body().total,
    page: () => body().page,
    json: () => schema.parse(JSON.parse(body().json)),
  };
}

/** The products query as the pipeline hands it over: parsed by the contract's schema, and the raw query. */
function products(deps: CatalogueDeps, raw: Record<string, string>) {
  return parsed(z.array(cropProductSchema), cropProducts(deps, raw, cropProductsQuerySchema.parse(raw)));
}

function siex(deps: CatalogueDeps, name: string, raw: Record<string, string> = {}) {
  return parsed(z.array(siexEntrySchema), siexCatalogue(deps, name, raw, siexCatalogueQuerySchema.parse(raw)));
}

function product(deps: CatalogueDeps, code: string) {
  return parsed(catalogueProductSchema, catalogueProduct(deps, code));
}

function card(deps: CatalogueDeps, ropo: string, nif: string) {
  return parsed(applicatorCardSchema, applicatorCard(deps, ropo, nif));
}

async function refusal(p: Promise<unknown>): Promise<{ status: number; codes: [ErrorCode, string][]; detail: string }> {
  try {
    await p;
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    return { status: statusOf(e.violations), codes: e.violations.map((v) => [v.code, v.path]), detail: e.detail };
  }
  throw new Error('expected a refusal');
}

describe('products for a crop', () => {
  it('answers the products by name, paged as the record list, the day defaulting to today in Madrid', async () => {
    const { deps } = setup();
    const all = await products(deps, { crop: '102' });
    expect(all.json().map((p) => p.code)).toEqual(['ES-19534', 'ES-11179']);
    expect([all.total(), all.page()]).toEqual([2, undefined]);
    const second = await products(deps, { crop: '102', page: '2', page_size: '1' });
    expect(second.json().map((p) => p.code)).toEqual(['ES-11179']);
    expect([second.total(), second.page()]).toEqual([2, { number: 2, size: 1, pages: 2 }]);
    expect((await products(deps, { crop: '102', page: '3', page_size: '1' })).json()).toEqual([]);
  });

  it('refuses an unknown crop, a pest no catalogue has, a day that does not exist, and page alone, together (400)', async () => {
    const { deps } = setup();
    const r = await refusal(products(deps, { crop: '999999', pest: 'plaga:99999', date: '31-02-2026', page: '1' }));
    expect(r.status).toBe(400);
    expect(r.codes).toEqual([
      ['PAGINATION_PAIR', 'query.page_size'],
      ['INVALID_DATE', 'query.date'],
      ['INVALID_VALUE', 'query.crop'],
      ['INVALID_VALUE', 'query.pest'],
    ]);
    expect(await refusal(products(deps, { crop: '102', page_size: '10' }))).toEqual({
      status: 400,
      codes: [['PAGINATION_PAIR', 'query.page']],
      detail: PAGINATION_PAIR_MESSAGE,
    });
  });

  it('refuses a pest code that is not in force on the day, as registration would', async () => {
    // The official pest catalogues have no withdrawn code yet: Araña roja común is withdrawn from 01-01-2026 here.
    const official = officialCatalogues();
    const codes = SiexCodes.from({
      ...official,
      PLAGAS: official.PLAGAS!.map((p) => (p.code === '21' ? { ...p, until: '2026-01-01' } : p)),
    });
    const { deps } = setup(undefined, codes);
    const r = await refusal(products(deps, { crop: '102', pest: 'plaga:21' }));
    expect(r.codes).toEqual([['INVALID_VALUE', 'query.pest']]);
    expect((await products(deps, { crop: '102', pest: 'plaga:21', date: '31-12-2025' })).total()).toBe(0);
  });
});

describe('ETag validators and lifetimes', () => {
  it('are the same for the same request on the same catalogue version and day, and differ otherwise', async () => {
    const t = setup();
    const tag = async (raw: Record<string, string>) => (await products(t.deps, raw)).tag;
    const first = await tag({ crop: '102' });
    expect(await tag({ crop: '102' })).toBe(first);
    expect(first).toMatch(/^[A-Za-z0-9_-]{27}$/);
    const others = [
      await tag({ crop: '101' }),
      await tag({ crop: '102', date: '16-05-2026' }),
      await tag({ crop: '102', page: '1', page_size: '10' }),
      await tag({ crop: '102', q: 'azufre' }),
    ];
    expect(new Set([first, ...others]).size).toBe(5);
    // the same day asked for explicitly is the same answer
    expect(await tag({ crop: '102', date: '15-05-2026' })).toBe(first);
    t.setVersion('v2');
    expect(await tag({ crop: '102' })).not.toBe(first);
    t.setVersion('v1');
    t.setNow('2026-05-16T00:00:01');
    expect(await tag({ crop: '102' })).not.toBe(first);
  });

  it('are rendered once per validator: the same request on the same data is answered from memory', async () => {
    const t = setup();
    const first = await cropProducts(t.deps, { crop: '102' }, cropProductsQuerySchema.parse({ crop: '102' }));
    const again = await cropProducts(t.deps, { crop: '102' }, cropProductsQuerySchema.parse({ crop: '102' }));
    expect(again.body()).toBe(first.body());
    expect(t.deps.answers.size).toBe(1);
    t.setVersion('v2');
    const changed = await cropProducts(t.deps, { crop: '102' }, cropProductsQuerySchema.parse({ crop: '102' }));
    expect(changed.body()).not.toBe(first.body());
    expect(t.deps.answers.size).toBe(2);
  });

  it(`may be kept ${CATALOGUE_MAX_AGE_SECONDS} s, and an answer about today no later than Madrid's midnight`, async () => {
    const t = setup('2026-05-15T23:58:00');
    expect((await products(t.deps, { crop: '102' })).maxAgeSeconds).toBe(120);
    expect((await products(t.deps, { crop: '102', date: '15-05-2026' })).maxAgeSeconds).toBe(CATALOGUE_MAX_AGE_SECONDS);
    expect((await catalogueProduct(t.deps, 'ES-11179')).maxAgeSeconds).toBe(120);
    t.setNow('2026-05-15T12:00:00');
    expect((await catalogueProduct(t.deps, 'ES-11179')).maxAgeSeconds).toBe(CATALOGUE_MAX_AGE_SECONDS);
  });
});

describe('one product', () => {
  it('is found by every spelling of its code registration and the register use', async () => {
    const { deps } = setup();
    for (const spelling of ['ES-11179', '11179', 'ES11179', 'es-11179', '011179']) {
      expect((await product(deps, spelling)).json().code).toBe('ES-11179');
    }
  });

  it('says whether it may be used today, and why not', async () => {
    const { deps } = setup();
    expect((await product(deps, 'ES-19548')).json().state).toEqual({
      on: '15-05-2026',
      standing: 'ended',
      description: 'ES-19548 is not in force: it expired on 31-12-2020',
    });
  });

  it('is 404 for a code no product has, and for one no product can have', async () => {
    const { deps } = setup();
    for (const code of ['ES-99999', '123456']) {
      expect(await refusal(catalogueProduct(deps, code))).toMatchObject({
        status: 404,
        codes: [['PRODUCT_CODE_NOT_FOUND', 'path.code']],
      });
    }
  });
});

describe('SIEX catalogues', () => {
  it('answer every code with its name and whether it is in force on the day (UVA DE MESA ends on 31-12-2022)', async () => {
    const { deps } = setup();
    const crop = async (date: string) => (await siex(deps, 'crops', { date })).json().find((e) => e.code === '103');
    expect(await crop('30-12-2022')).toEqual({
      code: '103',
      name: 'UVA DE MESA',
      eppo: 'VITVI',
      until: '31-12-2022',
      inForce: true,
    });
    expect((await crop('31-12-2022'))?.inForce).toBe(false);
  });

  it('give units their symbol and name, pests their kind, hierarchy code and group, stages their BBCH stage', async () => {
    const { deps } = setup();
    const units = (await siex(deps, 'units')).json();
    expect(units.find((u) => u.code === '17')).toEqual({
      code: '17',
      name: 'kilogramos por hectárea',
      symbol: 'kg/ha',
      until: '',
      inForce: true,
    });
    const pests = (await siex(deps, 'pests')).json();
    expect(pests.find((p) => p.code === '21')).toMatchObject({ kind: 'plaga', path: '6.1.3.4', parent: '17' });
    expect(pests.find((p) => p.code === '1')).toMatchObject({ path: '6', parent: null });
    expect((await siex(deps, 'weeds')).json()[0]).toMatchObject({ kind: 'mala_hierba' });
    expect((await siex(deps, 'phenological-stages')).json()[0]).toMatchObject({ code: '1', stage: '0' });
    const machines = (await siex(deps, 'machine-types')).json();
    expect(machines.every((m) => m.inForce && m.until === '')).toBe(true);
    expect(machines[0].code).toBe('0000000_88');
  });

  it('serve the fertilization catalogues, materials with what they must record, good practices of their scope', async () => {
    const { deps } = setup();
    const materials = (await siex(deps, 'fertilizer-materials')).json();
    expect(materials.find((m) => m.code === '3')).toMatchObject({
      name: 'Estiércol de porcino',
      inForce: true,
      record: {
        nutrients: [
          { code: '1', name: 'N total' },
          { code: '2', name: 'N orgánico' },
          { code: '6', name: 'P2O5 total' },
          { code: '9', name: 'K2O' },
        ],
        optionalNutrients: [{ code: '4', name: 'N amoniacal' }],
        byLabel: false,
        supplier: ['rega', 'nif'],
        treatments: [
          { code: '1', name: 'Ninguno' },
          { code: '3', name: 'Separación sólido-líquido: fracción líquida' },
          { code: '2', name: 'Separación sólido-líquido: fracción sólida' },
          { code: '4', name: 'Nitrificación-Desnitrificación-efluentes (NDN)' },
        ],
        productName: false,
        heavyMetals: false,
      },
    });
    expect(materials.find((m) => m.code === '22')?.record).toMatchObject({ supplier: ['nima'], heavyMetals: true });
    expect(materials).toHaveLength(24);
    const practices = (await siex(deps, 'fertilization-good-practices')).json();
    expect(practices.map((p) => p.code)).toContain('15');
    expect(practices.map((p) => p.code)).not.toContain('21');
    for (const name of [
      'fertilization-kinds',
      'fertilization-methods',
      'macronutrients',
      'micronutrients',
      'heavy-metals',
      'manure-treatments',
      'irrigation-systems',
      'irrigation-water-origins',
    ])
      expect([name, (await siex(deps, name)).json().length > 2]).toEqual([name, true]);
    expect((await siex(deps, 'units')).json().every((u) => u.record === undefined)).toBe(true);
  });

  it('are in code order and paged (efficacy 9 is withdrawn on 01-01-2026 in the test catalogues)', async () => {
    const { deps } = setup();
    const page = await siex(deps, 'efficacy', { page: '2', page_size: '2' });
    expect(page.json().map((e) => [e.code, e.inForce])).toEqual([
      ['3', true],
      ['9', false],
    ]);
    expect([page.total(), page.page()]).toEqual([4, { number: 2, size: 2, pages: 2 }]);
  });

  it('is 404 for a name the gateway does not serve', async () => {
    const { deps } = setup();
    for (const name of ['plagas', 'TIPO_PRODFITO', 'constructor', '__proto__']) {
      expect(await refusal(siex(deps, name))).toMatchObject({
        status: 404,
        detail: 'The gateway serves no SIEX catalogue of that name.',
        codes: [['SIEX_CATALOGUE_NOT_FOUND', 'path.name']],
      });
    }
  });

  it('names the unknown catalogue first, and still lists what is wrong with the query', async () => {
    const { deps } = setup();
    expect(await refusal(siex(deps, 'plagas', { page: '1' }))).toMatchObject({
      status: 404,
      detail: 'The gateway serves no SIEX catalogue of that name.',
      codes: [
        ['SIEX_CATALOGUE_NOT_FOUND', 'path.name'],
        ['PAGINATION_PAIR', 'query.page_size'],
      ],
    });
  });
});

describe("an applicator's card", () => {
  it('is answered with both identifiers, the NIF written any way registration takes it', async () => {
    const { deps } = setup();
    const found = await card(deps, CARDS.cualificado.ropo, ` ${CARDS.cualificado.nif.toLowerCase()} `);
    expect(found.json()).toEqual({
      ropo: CARDS.cualificado.ropo,
      levels: ['cualificado'],
      covers: ['basico', 'cualificado'],
      advisor: false,
      validUntil: CARDS.cualificado.validUntil,
      expired: false,
      suspended: false,
    });
    // an advisor's card says so (issue 23): the registration is a level of its own, covering no product
    const advisor = (await card(deps, CARDS.advisor.ropo, CARDS.advisor.nif)).json();
    expect([advisor.levels, advisor.covers, advisor.advisor]).toEqual([['asesor'], [], true]);
    const both = (await card(deps, CARDS.advisorExpiring.ropo, CARDS.advisorExpiring.nif)).json();
    expect([both.levels, both.covers, both.advisor]).toEqual([
      ['cualificado', 'asesor'],
      ['basico', 'cualificado'],
      true,
    ]);
    expect((await card(deps, CARDS.suspended.ropo, CARDS.suspended.nif)).json().suspended).toBe(true);
    expect((await card(deps, CARDS.expiring.ropo, CARDS.expiring.nif)).json().expired).toBe(true);
    expect((await card(deps, CARDS.fumigador.ropo, CARDS.fumigador.nif)).json().covers).toEqual(['fumigador']);
  });

  it("is 404, the same answer, when either identifier is another card's or nobody's", async () => {
    const { deps } = setup();
    const answers = await Promise.all([
      refusal(applicatorCard(deps, CARDS.cualificado.ropo, CARDS.basico.nif)),
      refusal(applicatorCard(deps, 'ES-99999999', CARDS.basico.nif)),
      refusal(applicatorCard(deps, 'ES-99999999', CARDS.cualificado.nif)),
    ]);
    expect(answers[0]).toMatchObject({ status: 404, codes: [['APPLICATOR_NOT_FOUND', 'query']] });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it('refuses a NIF that cannot be one (400), as registration does', async () => {
    const { deps } = setup();
    expect(await refusal(applicatorCard(deps, CARDS.basico.ropo, '12345678A'))).toMatchObject({
      status: 400,
      codes: [['NIF_INVALID', 'query.nif']],
    });
  });
});
