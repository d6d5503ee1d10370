import { DateTime } from 'luxon';
import { ProductUse } from '../catalog/product';
import { CoreErrorCode, Violation } from '../domain/errors';
import { MAX_PAGE_SIZE } from '../domain/pagination';
import { ListFilter } from '../records/list-records';
import { CueMapResult, JudgeContext } from '../records/record-kind';
import { timeRules } from '../rules/time-rules';
import { partRules, Treated } from './part-rules';
import { ProductPart } from './product-part';

/** A treatment of something other than a growing crop: its product part, on a day and time (Madrid). */
export interface PartTreatment extends ProductPart {
  appliedAt: DateTime;
}

/**
 * The rules every treatment of produce or of a store shares, from what the records core hands its kind:
 * the time (in the farm's campaign, not in the future, registered within the kind's window) and the product part
 * against the register's uses of its scope (part-rules.ts), with the reference data read once per attempt.
 */
export function judgePartTreatment(
  ctx: JudgeContext<PartTreatment>,
  treated: Treated,
): { violations: Violation[]; uses: ProductUse[] } {
  const t = ctx.request;
  const { products, applicators, codes } = ctx.reference;
  const part = partRules(
    {
      treatment: t,
      appliedAt: ctx.appliedAt,
      product: products.get(t.product.code),
      mixed: t.mix.map((m) => products.get(m.code)),
      applicator: applicators.get(t.applicator.ropo),
      advisor: t.advisor ? applicators.get(t.advisor.ropo) : undefined,
      codeInForce: (catalogue, code, on) => codes.isValid(catalogue, code, on),
      codes,
      ...(ctx.own ? { ownMachines: ctx.own.machines ?? [] } : {}),
    },
    treated,
  );
  return { violations: [...timeRules(ctx), ...part.violations], uses: part.uses };
}

/** What a record of these kinds shows of its export. */
interface ExportState {
  exported: '0' | '1';
  exportable: boolean;
}

/** The filters of a list of these treatments: the product (each row's list value), the export state. */
export function partListFilter<V extends ExportState>(q: {
  product?: string | undefined;
  exported?: number | undefined;
  exportable?: number | undefined;
}): ListFilter<V> {
  const onAnswers = q.exported !== undefined || q.exportable !== undefined;
  return {
    ...(q.product !== undefined ? { value: q.product } : {}),
    ...(onAnswers
      ? {
          answers: (record: V) =>
            (q.exported === undefined || record.exported === String(q.exported)) &&
            (q.exportable === undefined || record.exportable === (q.exportable === 1)),
        }
      : {}),
  };
}

/** A stored record as answered: with what an export would refuse of it now, by the export's own mapping. */
export function answerOf<R extends object>(
  record: R,
  mapped: CueMapResult,
): R & { exportable: boolean; exportBlockers: { code: 'MISSING_DATA'; message: string }[] } {
  const blockers = mapped.ok ? [] : mapped.missing.map((message) => ({ code: 'MISSING_DATA' as const, message }));
  return { ...record, exportable: blockers.length === 0, exportBlockers: blockers };
}

/** What registering a treatment of produce or of a store may answer beyond what every request may. */
export const PART_REGISTER_ERRORS: CoreErrorCode[] = [
  'AGRIFARM_NOT_FOUND',
  'DATE_IN_FUTURE',
  'DATE_TOO_OLD',
  'OUTSIDE_CAMPAIGN',
  'UNKNOWN_SIEX_CODE',
  'MEASURE_MISMATCH',
  'TREATED_QUANTITY_UNIT',
  'INFECTION_KIND_NOT_IN_BLOCK',
  'PRODUCT_NOT_FOUND',
  'PRODUCT_NOT_IN_FORCE',
  'PRODUCT_NOT_FOR_CROP',
  'PEST_NOT_AUTHORIZED',
  'DOSE_ABOVE_MAX',
  'DOSE_BELOW_MIN',
  'DOSE_OUT_OF_RANGE',
  'DOSE_UNIT_INCOMPATIBLE',
  'OUTSIDE_AUTHORIZED_PERIOD',
  'NIF_INVALID',
  'APPLICATOR_NOT_RECOGNISED',
  'ROPO_SUSPENDED',
  'ROPO_EXPIRED',
  'ROPO_LEVEL_INSUFFICIENT',
  'ADVISOR_NOT_RECOGNISED',
  'ADVISOR_NOT_IN_FORCE',
  'ADVISOR_NOT_REGISTERED',
  'ADVISOR_REQUIRED',
  'EQUIPMENT_INSPECTION_EXPIRED',
  'EQUIPMENT_INSPECTION_UNKNOWN',
  'PRODUCT_REPEATED',
  'IDEMPOTENCY_KEY_REUSED',
  'CONCURRENT_UPDATE',
];

/**
 * What the list, an amendment and a deletion of these treatments (and of other records that name no crop location) do,
 * in the OpenAPI document; `listed` says what day the list's period is on and what its own filter is.
 */
export function partDescriptions(
  idAjena: string,
  listed = { on: 'the application day', by: "product (the main product's code)" },
): { list: string; amend: string; delete: string } {
  return {
    list:
      `Newest first. Filters: dateFrom and dateTo (DD-MM-YYYY, inclusive, on ${listed.on}), ${listed.by}, ` +
      `exported, exportable. Pagination as the treatments' list: page and page_size (1 to ${MAX_PAGE_SIZE}) ` +
      'together, or neither; X-Total-Count, X-Page, X-Page-Size, X-Total-Pages and Link headers.',
    amend:
      "A JSON Merge Patch (RFC 7396) of the registration request's fields, validated whole as a registration, except " +
      "that the operators' window applies only to a new application day. Answers 200 with the record in an array, " +
      '`dateModified` set and the new `ETag`; `If-Match` with an older ETag is 412. An exported record goes back to ' +
      `\`exported: "0"\` and the next export sends it under the same ${idAjena}. A record in an unfinished ` +
      'export is 409.',
    delete:
      'As a treatment: a record SIEX never received is deleted at once (204); one SIEX holds is deleted there first, ' +
      '202 with a job that sends it with `Borrar: true`. Its history stays readable.',
  };
}
