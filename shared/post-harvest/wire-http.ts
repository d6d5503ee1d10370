import { KindHttp } from '../records/kind-entry';
import { PART_REGISTER_ERRORS, partDescriptions } from '../plant-protection/part-kind';
import {
  postHarvestListQuerySchema,
  postHarvestPatchSchema,
  postHarvestRecordViewSchema,
  postHarvestRequestSchema,
} from './wire';
import { postHarvestExamples } from './wire-examples';

/**
 * The post-harvest treatments' HTTP face (CUE `TratamientosPostCosecha`): what the core's seven contracts take from
 * the kind (shared/http/contracts/record-*.ts), the rest being what every kind answers alike.
 */
export const postHarvestHttp: KindHttp = {
  request: postHarvestRequestSchema,
  view: postHarvestRecordViewSchema,
  patch: postHarvestPatchSchema,
  listQuery: postHarvestListQuerySchema,
  descriptions: {
    register:
      'Validates a treatment of harvested produce (RD 1311/2012 Anexo III: the "producto vegetal" treated) and stores ' +
      "it: the product part as a treatment's (the product in the register and in force on the day, the applicator's " +
      'ROPO card of a level enough, the advisor when named, the machines inspected, every code in force), judged ' +
      "against the register's uses whose scope is `postharvest` on a crop of the produce (PROD_VEGETAL pairs a produce " +
      'with its crops): a product with field uses only is 422 PRODUCT_NOT_FOR_CROP at body.subtype, a dose outside ' +
      "the use's range 422 DOSE_*. The block has no place for weeds: an infection of kind mala_hierba is 422 " +
      'INFECTION_KIND_NOT_IN_BLOCK. The produce is weighed (kg or t; SIEX takes kilograms). SIEX wants the total ' +
      'amount of each product: `dt` and `mdt`, or derived from a dose per kilogram or tonne of produce; a record ' +
      'without either is stored but not exportable. Dates as for treatments (in the campaign, not in the future, ' +
      "within the operators' MAX_BACKDATE_DAYS). All violations are reported together. `Idempotency-Key` as on " +
      'treatments.',
    ...partDescriptions('IdAjenaTratamPostco'),
  },
  batchCounts: 'nothing of earlier ones: each is judged on its own',
  errors: { register: PART_REGISTER_ERRORS },
  examples: postHarvestExamples,
};
