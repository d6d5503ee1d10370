import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { officialCataloguesDir } from '../../local/siex-data';
import { findProjectRoot, Stack, startStack } from '../../local/stack';
import {
  applicatorCardSchema,
  catalogueProductSchema,
  cropProductSchema,
  siexEntrySchema,
} from '../../shared/api/catalog-schemas';
import { validateDataset } from '../../shared/backoffice/dataset-validation';
import { importDataset } from '../../shared/backoffice/import';
import { Dataset } from '../../shared/backoffice/dataset-schema';
import { Product } from '../../shared/catalog/product';
import { TableStore } from '../../shared/store/tables';
import { dataset } from '../helpers/dataset';
import { call, Keys, Reply } from '../helpers/http';
import { famolins, microthiol } from '../helpers/phyto-fixtures';
import { APPLICATORS, testClient } from '../helpers/phyto-stack';

/**
 * The catalogue endpoints over HTTP (issue 14), through a runner of its own: its catalogue holds only this file's
 * products, and this file imports into it while it runs (an ETag must change then), which the shared stack's other
 * files must never see.
 */
const client = testClient('catalog', []);
/** A second client, for the rate limit: the first one's requests must not count against it. */
const hurried = testClient('catalog-rate', []);
const keys: Keys = { sidKey: client.sidKey, apiKey: client.apiKey };

const VINE = '102';
const OLIVE = '101';
const MITES = { kind: 'plaga', code: 2, name: 'Ácaros' } as const;
const FAR = { registered: '01-01-2000', expires: '31-12-2099', lastUse: '' };
const C = {
  /** Sulphur dust on vine against powdery mildew (every month) and against mites (Ácaros, a group). */
  vine: 'ES-93534',
  /** Sulphur on olive only. */
  olive: 'ES-93179',
  /** On vine, expired on 31-12-2020 with no last-use day. */
  expired: 'ES-93999',
  /** On vine, expired on 31-12-2020, usable through 30-06-2021. */
  grace: 'ES-93998',
  /** Added by an import half-way through. */
  late: 'ES-93777',
} as const;

const vineUse = { ...famolins().uses[0], cropTypeIds: [VINE], months: undefined };
const products: Product[] = [
  famolins({ ...FAR, code: C.vine, uses: [vineUse, { ...vineUse, pest: MITES }] }),
  microthiol({ ...FAR, code: C.olive, uses: [{ ...microthiol().uses[1], cropTypeIds: [OLIVE] }] }),
  famolins({ ...FAR, code: C.expired, name: 'CADUCADO', expires: '31-12-2020', uses: [vineUse] }),
  famolins({ ...FAR, code: C.grace, name: 'EN GRACIA', expires: '31-12-2020', lastUse: '30-06-2021', uses: [vineUse] }),
];

function theDataset(extra: Product[] = []): Dataset {
  return dataset({
    clients: [client, hurried],
    applicators: Object.values(APPLICATORS),
    products: [...products, ...extra],
  });
}

let stack: Stack;

beforeAll(async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'catalog-')), 'dataset.json');
  writeFileSync(file, JSON.stringify(theDataset()));
  const root = findProjectRoot(__dirname);
  stack = await startStack({
    projectRoot: root,
    inMemory: true,
    gatewayPort: 0,
    catalogues: officialCataloguesDir(root),
    dataset: file,
    // Reference data revalidated on every request: an import is answered at once.
    env: { AUTH_MODE: 'local', REFERENCE_CACHE_SECONDS: '0' },
    output: () => undefined,
  });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

/** A GET with the client's keys, another client's, or (null) none. */
function get(path: string, headers: Record<string, string> = {}, as: Keys | null = keys): Promise<Reply> {
  return call('GET', path, { base: stack.gatewayUrl, keys: as ?? undefined, headers });
}

const codesOf = (res: Reply): string[] =>
  z
    .array(cropProductSchema)
    .parse(res.json)
    .map((p) => p.code);
const problemCodes = (res: Reply): string[] => res.json.errors.map((e: { code: string }) => e.code);

describe('products for a crop', () => {
  it('lists the products authorised on the crop, and not those authorised only on another', async () => {
    const vine = await get(`/v1/catalog/products?crop=${VINE}&date=15-05-2026`);
    expect(vine.status).toBe(200);
    expect(vine.headers.get('content-type')).toContain('application/json');
    expect(codesOf(vine)).toEqual([C.vine]);
    const olive = await get(`/v1/catalog/products?crop=${OLIVE}&date=15-05-2026`);
    expect(codesOf(olive)).toEqual([C.olive]);
    expect(olive.json[0]).toMatchObject({
      code: C.olive,
      requiredLevel: 'basico',
      uses: [
        {
          dose: { min: 0.25, max: 0.75, unit: { code: 14, symbol: '%', name: 'porcentaje' } },
          pests: [{ kind: 'enfermedad', code: 42 }],
        },
      ],
    });
    // tomato: a crop of the catalogue none of these products is authorised on
    expect(codesOf(await get('/v1/catalog/products?crop=197&date=15-05-2026'))).toEqual([]);
  });

  it('lists an expired product through its expiry day and not after, a product in grace through its last-use day', async () => {
    const on = async (date: string) => codesOf(await get(`/v1/catalog/products?crop=${VINE}&date=${date}`));
    expect(await on('31-12-2020')).toEqual([C.expired, C.grace, C.vine]);
    expect(await on('01-01-2021')).toEqual([C.grace, C.vine]);
    expect(await on('30-06-2021')).toEqual([C.grace, C.vine]);
    expect(await on('01-07-2021')).toEqual([C.vine]);
  });

  it('with a pest, keeps the uses against it or a group it belongs to: Ácaros (6.1) for Araña roja común (plaga:21)', async () => {
    const res = await get(`/v1/catalog/products?crop=${VINE}&date=15-05-2026&pest=plaga:21`);
    expect(codesOf(res)).toEqual([C.vine]);
    expect(res.json[0].uses.map((u: { pests: unknown }) => u.pests)).toEqual([[{ ...MITES }]]);
    // a disease none of them is authorised against
    expect(codesOf(await get(`/v1/catalog/products?crop=${VINE}&date=15-05-2026&pest=enfermedad:42`))).toEqual([]);
  });

  it('searches the names', async () => {
    const found = await get(`/v1/catalog/products?crop=${VINE}&date=31-12-2020&q=${encodeURIComponent('caducádo')}`);
    expect(codesOf(found)).toEqual([C.expired]);
  });

  it('pages as the record list does', async () => {
    const page = await get(`/v1/catalog/products?crop=${VINE}&date=31-12-2020&page=2&page_size=1`);
    expect(codesOf(page)).toEqual([C.grace]);
    expect(page.headers.get('x-total-count')).toBe('3');
    expect(page.headers.get('x-total-pages')).toBe('3');
    expect(page.headers.get('link')).toContain('rel="next"');
    const alone = await get(`/v1/catalog/products?crop=${VINE}&page=1`);
    expect([alone.status, problemCodes(alone)]).toEqual([400, ['PAGINATION_PAIR']]);
    expect(alone.json.detail).toBe('page and page_size must be provided together');
  });

  it('is 400 for an unknown crop code, a missing one, a day that does not exist and an unknown pest', async () => {
    for (const [query, code] of [
      ['crop=999999', 'INVALID_VALUE'],
      ['date=15-05-2026', 'REQUIRED'],
      [`crop=${VINE}&date=30-02-2026`, 'INVALID_DATE'],
      [`crop=${VINE}&pest=plaga:999999`, 'INVALID_VALUE'],
      [`crop=${VINE}&pest=bicho:21`, 'INVALID_VALUE'],
      [`crop=${VINE}&scope=orchard`, 'INVALID_VALUE'],
    ]) {
      const res = await get(`/v1/catalog/products?${query}`);
      expect([query, res.status, res.headers.get('content-type'), problemCodes(res)]).toEqual([
        query,
        400,
        'application/problem+json',
        [code],
      ]);
    }
  });
});

describe('one product', () => {
  it('answers every use on every crop, the register dates and its state, by any spelling of its code', async () => {
    for (const spelling of [C.vine, C.vine.slice(3), `ES${C.vine.slice(3)}`]) {
      const res = await get(`/v1/catalog/products/${spelling}`);
      expect(res.status).toBe(200);
      const product = catalogueProductSchema.parse(res.json);
      expect(product).toMatchObject({ code: C.vine, registered: '01-01-2000', expires: '31-12-2099' });
      expect(product.state.standing).toBe('in-force');
      expect(product.uses.map((u) => [u.crops, u.pests.map((p) => p.code)])).toEqual([
        [[{ code: VINE, name: 'VIÑA' }], [148, 2]],
      ]);
    }
    const expired = catalogueProductSchema.parse((await get(`/v1/catalog/products/${C.expired}`)).json);
    expect(expired.state).toMatchObject({ standing: 'ended' });
  });

  it('is 404 for a code of no product, 400 for text that is no code', async () => {
    const unknown = await get('/v1/catalog/products/ES-99999');
    expect([unknown.status, problemCodes(unknown)]).toEqual([404, ['PRODUCT_CODE_NOT_FOUND']]);
    const text = await get('/v1/catalog/products/azufre');
    expect([text.status, problemCodes(text)]).toEqual([400, ['INVALID_VALUE']]);
  });
});

describe('SIEX catalogues', () => {
  it('answers the codes of each catalogue the gateway serves', async () => {
    for (const name of [
      'units',
      'crops',
      'pests',
      'diseases',
      'weeds',
      'growth-regulators',
      'justifications',
      'efficacy',
      'phenological-stages',
      'machine-types',
      'fertilizer-materials',
      'fertilizer-details',
      'fertilization-kinds',
      'fertilization-methods',
      'macronutrients',
      'micronutrients',
      'heavy-metals',
      'manure-treatments',
      'irrigation-systems',
      'irrigation-water-origins',
      'fertilization-good-practices',
    ]) {
      const res = await get(`/v1/catalog/siex/${name}?page=1&page_size=3`);
      expect([name, res.status]).toEqual([name, 200]);
      expect(z.array(siexEntrySchema).parse(res.json)).toHaveLength(3);
      expect(Number(res.headers.get('x-total-count'))).toBeGreaterThanOrEqual(3);
    }
    const pests = z.array(siexEntrySchema).parse((await get('/v1/catalog/siex/pests')).json);
    expect(pests.find((p) => p.code === '21')).toMatchObject({
      name: 'Araña roja común, Tetranychus spp.',
      kind: 'plaga',
      path: '6.1.3.4',
      parent: '17',
      inForce: true,
    });
    const crops = (date: string) => get(`/v1/catalog/siex/crops?date=${date}`);
    const grapes = async (date: string) => (await crops(date)).json.find((c: { code: string }) => c.code === '103');
    expect((await grapes('30-12-2022')).inForce).toBe(true);
    expect((await grapes('31-12-2022')).inForce).toBe(false);
  });

  it('answers MAT_FERTI with what each material must record', async () => {
    const materials = z.array(siexEntrySchema).parse((await get('/v1/catalog/siex/fertilizer-materials')).json);
    expect(materials.find((m) => m.code === '14')?.record).toMatchObject({ byLabel: true, supplier: [] });
  });

  it('is 404 for a name it does not serve', async () => {
    const res = await get('/v1/catalog/siex/plagas');
    expect([res.status, problemCodes(res)]).toEqual([404, ['SIEX_CATALOGUE_NOT_FOUND']]);
    expect(res.json.detail).toBe('The gateway serves no SIEX catalogue of that name.');
  });
});

describe("an applicator's card", () => {
  const card = APPLICATORS.cualificado;
  const lookup = (ropo: string, nif: string) =>
    get(`/v1/catalog/applicators?ropo=${encodeURIComponent(ropo)}&nif=${encodeURIComponent(nif)}`);

  it('is found with both identifiers, and tells nothing personal beyond them', async () => {
    const res = await lookup(card.ropo, card.nif);
    expect(res.status).toBe(200);
    expect(applicatorCardSchema.strict().parse(res.json)).toEqual({
      ropo: card.ropo,
      levels: ['cualificado'],
      covers: ['basico', 'cualificado'],
      advisor: false,
      validUntil: card.validUntil,
      expired: false,
      suspended: false,
    });
    expect(res.text).not.toContain(card.name);
    expect((await lookup(APPLICATORS.suspended.ropo, APPLICATORS.suspended.nif)).json.suspended).toBe(true);
    expect((await lookup(APPLICATORS.expired.ropo, APPLICATORS.expired.nif)).json.expired).toBe(true);
    const advisor = (await lookup(APPLICATORS.advisor.ropo, APPLICATORS.advisor.nif)).json;
    expect([advisor.levels, advisor.covers, advisor.advisor]).toEqual([['asesor'], [], true]);
  });

  it('is 404, byte for byte the same, with only one of the two right', async () => {
    const wrongNif = await lookup(card.ropo, APPLICATORS.basico.nif);
    const wrongRopo = await lookup(APPLICATORS.basico.ropo, card.nif);
    const neither = await lookup('ES-99999999', '00000000T');
    expect([wrongNif.status, problemCodes(wrongNif)]).toEqual([404, ['APPLICATOR_NOT_FOUND']]);
    expect(wrongRopo.text).toBe(wrongNif.text);
    expect(neither.text).toBe(wrongNif.text);
  });

  it('is 400 without both identifiers, and with a NIF that cannot be one; there is no listing', async () => {
    const ropoOnly = await get(`/v1/catalog/applicators?ropo=${card.ropo}`);
    expect([ropoOnly.status, problemCodes(ropoOnly)]).toEqual([400, ['REQUIRED']]);
    const nifOnly = await get(`/v1/catalog/applicators?nif=${card.nif}`);
    expect([nifOnly.status, problemCodes(nifOnly)]).toEqual([400, ['REQUIRED']]);
    const bad = await lookup(card.ropo, '12345678A');
    expect([bad.status, problemCodes(bad)]).toEqual([400, ['NIF_INVALID']]);
    expect((await get('/v1/catalog/applicators')).status).toBe(400);
  });
});

describe('caching', () => {
  const routes = [
    `/v1/catalog/products?crop=${VINE}`,
    `/v1/catalog/products/${C.vine}`,
    '/v1/catalog/siex/units',
    `/v1/catalog/applicators?ropo=${APPLICATORS.basico.ropo}&nif=${APPLICATORS.basico.nif}`,
  ];

  it.each(routes)(
    '%s: a strong ETag, private caching, and 304 with no body on a matching If-None-Match',
    async (path) => {
      const first = await get(path);
      expect(first.status).toBe(200);
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expect(first.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
      const again = await get(path, { 'If-None-Match': etag });
      expect([again.status, again.text, again.headers.get('etag')]).toEqual([304, '', etag]);
      expect(again.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
      expect((await get(path, { 'If-None-Match': `"other", W/${etag}` })).status).toBe(304);
      const stale = await get(path, { 'If-None-Match': '"not-this-one"' });
      expect([stale.status, stale.headers.get('etag'), stale.text]).toEqual([200, etag, first.text]);
    },
  );

  it('changes the ETag when an import changes the catalogue, and answers the new data', async () => {
    const path = `/v1/catalog/products?crop=${VINE}&date=15-05-2026`;
    const before = await get(path);
    const etag = before.headers.get('etag')!;
    expect((await get(path, { 'If-None-Match': etag })).status).toBe(304);
    const late = famolins({ ...FAR, code: C.late, name: 'AZUFRE TARDÍO', uses: [vineUse] });
    const checked = validateDataset(JSON.parse(JSON.stringify(theDataset([late]))));
    await importDataset(checked.dataset!, new TableStore({ AzureWebJobsStorage: stack.storageConnectionString }));
    const after = await get(path, { 'If-None-Match': etag });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(codesOf(after)).toEqual([C.late, C.vine]);
  });
});

describe('keys and limits', () => {
  const paths = [
    `/v1/catalog/products?crop=${VINE}`,
    `/v1/catalog/products/${C.vine}`,
    '/v1/catalog/siex/crops',
    `/v1/catalog/applicators?ropo=${APPLICATORS.basico.ropo}&nif=${APPLICATORS.basico.nif}`,
  ];

  it.each(paths)('%s needs both keys (401)', async (path) => {
    const none = await get(path, {}, null);
    expect([none.status, problemCodes(none)]).toEqual([401, ['MISSING_CREDENTIALS', 'MISSING_CREDENTIALS']]);
    const sidOnly = await get(path, { 'Ocp-Apim-Sid-Key': client.sidKey }, null);
    expect([sidOnly.status, problemCodes(sidOnly)]).toEqual([401, ['MISSING_CREDENTIALS']]);
    const wrong = await get(path, {}, { sidKey: client.sidKey, apiKey: 'not-the-key-of-this-client-at-all-000000' });
    expect([wrong.status, problemCodes(wrong)]).toEqual([401, ['INVALID_CREDENTIALS']]);
    expect(wrong.text).not.toContain('ES-');
  });

  it('counts catalogue requests against the rate limit like any other (429 with Retry-After)', async () => {
    const as = { sidKey: hurried.sidKey, apiKey: hurried.apiKey };
    const statuses: number[] = [];
    for (let i = 0; i < 101; i++) statuses.push((await get(paths[i % paths.length], {}, as)).status);
    expect(statuses.slice(0, 100).every((s) => s === 200)).toBe(true);
    const limited = await get(paths[0], {}, as);
    expect([statuses[100], limited.status, problemCodes(limited)]).toEqual([429, 429, ['RATE_LIMITED']]);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
