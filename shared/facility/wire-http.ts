import { KindHttp } from '../records/kind-entry';
import { PART_REGISTER_ERRORS, partDescriptions } from '../plant-protection/part-kind';
import { facilityListQuerySchema, facilityPatchSchema, facilityRecordViewSchema, facilityRequestSchema } from './wire';
import { facilityExamples } from './wire-examples';

/**
 * The store treatments' HTTP face (CUE `TratamientosEdifInstalaciones`): what the core's seven contracts take from
 * the kind (shared/http/contracts/record-*.ts), the rest being what every kind answers alike.
 */
export const facilityHttp: KindHttp = {
  request: facilityRequestSchema,
  view: facilityRecordViewSchema,
  patch: facilityPatchSchema,
  listQuery: facilityListQuerySchema,
  descriptions: {
    register:
      'Validates a treatment of a store, chamber or premises (RD 1311/2012 Anexo III: the "local" treated, its ' +
      "volume in m3) and stores it: the product part as a treatment's (the product in the register and in force on " +
      "the day, the applicator's ROPO card of a level enough, the advisor when named, the machines inspected, every " +
      "code in force), judged against the register's uses whose scope is `facility`: a product without one is 422 " +
      'PRODUCT_NOT_FOR_CROP at body.subtype, a dose outside its range 422 DOSE_*. The block has no place for weeds or ' +
      'growth regulation: an infection of kind mala_hierba or regulador is 422 INFECTION_KIND_NOT_IN_BLOCK. Each ' +
      "building names its class (EDIFICACIONES_INSTALACIONES) and its own REA identifier (`reaId`, SIEX's " +
      'IdEdificacion), and the volume treated (m3 or L; SIEX takes m3). Dates as for treatments. All violations are ' +
      'reported together. `Idempotency-Key` as on treatments.',
    ...partDescriptions('IdAjenaTratamEdif'),
  },
  batchCounts: 'nothing of earlier ones: each is judged on its own',
  errors: { register: PART_REGISTER_ERRORS },
  examples: facilityExamples,
};
