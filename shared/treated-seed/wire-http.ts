import { CoreErrorCode } from '../domain/errors';
import { TreatedSeedErrorCode } from './errors';
import { KindHttp } from '../records/kind-entry';
import { PART_REGISTER_ERRORS, partDescriptions } from '../plant-protection/part-kind';
import {
  treatedSeedListQuerySchema,
  treatedSeedPatchSchema,
  treatedSeedRecordViewSchema,
  treatedSeedRequestSchema,
} from './wire';
import { treatedSeedExamples } from './wire-examples';

/**
 * What registering a use of treated seed may answer beyond what every request may: a treatment's, less what is said
 * of the applicator, the advisor, the machines and the pest (the block has none of them), and the seed's own.
 */
const NOT_OF_SEED = /^(NIF|APPLICATOR|ROPO|ADVISOR|EQUIPMENT|INFECTION|PEST)_/;
const REGISTER_ERRORS: (CoreErrorCode | TreatedSeedErrorCode)[] = [
  ...PART_REGISTER_ERRORS.filter((code) => !NOT_OF_SEED.test(code)),
  'SEED_PRODUCTS_REQUIRED',
];

/**
 * The treated seed's HTTP face (CUE `UsoSemillaTratada`): what the core's seven contracts take from the kind
 * (shared/http/contracts/record-*.ts), the rest being what every kind answers alike.
 */
export const treatedSeedHttp: KindHttp = {
  request: treatedSeedRequestSchema,
  view: treatedSeedRecordViewSchema,
  patch: treatedSeedPatchSchema,
  listQuery: treatedSeedListQuerySchema,
  descriptions: {
    register:
      'Validates a use of treated seed (RD 1311/2012 Anexo III: "si la siembra se realiza con semilla tratada, indicar ' +
      'el producto") and stores it: where the seed was treated (TIPO_TRATAMIENTO), the crop sown (PRODUCTOS, which ' +
      'SIEX takes as `Producto`), the lot, the seed weighed (kg or t; SIEX takes kilograms), and the products. Seed ' +
      'treated on the farm or at a conditioning centre (2, 3) must name its products, or 422 SEED_PRODUCTS_REQUIRED; ' +
      'for seed bought treated (4, 5) they are optional. Each product named is judged against the register: in force ' +
      'on the day, and a use whose scope is `seed` on the crop at that dose: a product with field uses only is 422 ' +
      'PRODUCT_NOT_FOR_CROP at body.products[i].subtype. SIEX wants the total amount of each product: `dt` and `mdt`, ' +
      'or derived from a dose per kilogram of seed; a record without either, or without `efficacy`, is stored but ' +
      "not exportable. Dates as for treatments (in the campaign, not in the future, within the operators' " +
      'MAX_BACKDATE_DAYS). All violations are reported together. `Idempotency-Key` as on treatments.',
    ...partDescriptions('IdAjenaSemillaTrat', {
      on: 'the day of use',
      by: 'crop (the PRODUCTOS code of the crop sown)',
    }),
  },
  batchCounts: 'nothing of earlier ones: each is judged on its own',
  errors: { register: REGISTER_ERRORS },
  examples: treatedSeedExamples,
};
