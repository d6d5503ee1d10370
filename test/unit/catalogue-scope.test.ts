import { CATALOGUE_DETAILS } from '../../shared/app/siex-catalogues';
import { DateTime } from 'luxon';
import { z } from 'zod';
import { catalogueProductSchema, cropProductSchema, cropProductsQuerySchema } from '../../shared/api/catalog-schemas';
import { VersionedValue } from '../../shared/cache/versioned-value';
import { answerCache } from '../../shared/catalog/answer-cache';
import { catalogueProduct, CatalogueDeps, cropProducts } from '../../shared/catalog/catalogue-service';
import { ZONE } from '../../shared/domain/dates';
import { microthiol, testSiexCodes } from '../helpers/phyto-fixtures';
import { importedProduct } from './catalog-fixtures';
import { deccoZox, kobiolEc, latitude } from './register-scope-fixtures';

/**
 * `GET /v1/catalog/products?scope=` (issue 34): the products whose uses of that scope accept a registration for the
 * crop on the day; without `scope`, field uses, as before scopes existed.
 */
const codes = testSiexCodes();
const registered = [deccoZox(), kobiolEc(), latitude()].map((raw) => importedProduct(raw, codes));

const deps: CatalogueDeps = {
  answers: answerCache(),
  details: CATALOGUE_DETAILS,
  reference: new VersionedValue(
    async () => 'v1',
    async () => ({
      products: new Map([microthiol(), ...registered].map((p) => [p.code, p])),
      applicators: new Map(),
      codes,
    }),
    0,
  ),
  now: () => DateTime.fromISO('2026-05-15T12:00:00', { zone: ZONE }),
};

async function listed(raw: Record<string, string>) {
  const answer = await cropProducts(deps, raw, cropProductsQuerySchema.parse(raw));
  return z.array(cropProductSchema).parse(JSON.parse(answer.body().json));
}
const namesOf = async (raw: Record<string, string>) => (await listed(raw)).map((p) => p.name);

const ORANGE = '206';
const WHEAT = '1';

describe('the crop listing by scope of use', () => {
  it("lists field uses by default, so an orange grove is offered no post-harvest wax and today's answers stay", async () => {
    expect(await namesOf({ crop: ORANGE })).toEqual([]);
    expect(await namesOf({ crop: WHEAT })).toEqual(['DECCO ZOX']);
    expect(await namesOf({ crop: WHEAT, scope: 'field' })).toEqual(['DECCO ZOX']);
    expect(await namesOf({ crop: '102' })).toEqual(['MICROTHIOL SPECIAL DISPERSS']);
  });

  it('lists the post-harvest uses on the produce of the crop, and the seed treatments of its seed', async () => {
    const waxes = await listed({ crop: ORANGE, scope: 'postharvest' });
    expect(waxes.map((p) => [p.name, p.uses.map((u) => [u.dose.max, u.dose.unit.symbol])])).toEqual([
      ['DECCO ZOX', [[600, 'cc/hL']]],
    ]);
    expect(await namesOf({ crop: WHEAT, scope: 'postharvest' })).toEqual(['K-OBIOL EC 25']);
    expect(await namesOf({ crop: WHEAT, scope: 'seed' })).toEqual(['LATITUDE XL']);
  });

  it('lists the uses on stores and premises whatever crop is asked about: they name none', async () => {
    for (const crop of [WHEAT, ORANGE]) {
      const stores = await listed({ crop, scope: 'facility' });
      expect(stores.map((p) => p.name)).toEqual(['K-OBIOL EC 25']);
      expect(stores[0].uses).toHaveLength(1);
      expect(stores[0].uses[0].pests).toHaveLength(3);
    }
  });

  it('refuses a scope it does not know', () => {
    const parsed = cropProductsQuerySchema.safeParse({ crop: WHEAT, scope: 'orchard' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path)).toEqual([['scope']]);
  });

  it("says each use's scope in the one-product answer, with no crop for premises", async () => {
    const answer = await catalogueProduct(deps, '25710');
    const product = catalogueProductSchema.parse(JSON.parse(answer.body().json));
    expect(product.uses.map((u) => [u.scope, u.crops.length > 0])).toEqual(
      expect.arrayContaining([
        ['facility', false],
        ['postharvest', true],
      ]),
    );
  });
});
