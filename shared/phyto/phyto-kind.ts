import { PhytoRecord, PhytoRecordView } from './wire-record';
import { PhytoRequest, phytoRequestSchema } from './wire';
import { StoredProduct } from '../catalog/catalog-store';
import { RecordKind } from '../records/record-kind';
import { blockKeysOf } from '../siex/cue-mapping';
import {
  applicationDate,
  dayCountsOf,
  guardKeysOf,
  historyEntryOf,
  productsContext,
  updatedDayCounts,
} from './application-change';
import { treatmentCue } from './cue-block';
import { recordAnswer } from './record-answer';
import { buildRecord, RECORD_FORMAT, upgradeRecord } from './record-view';
import { Resolution } from './rule-context';
import { checkApplication } from './rules';

/** What judging a treatment resolved: the uses that allow it, and its main product's register entry (for the view). */
export interface PhytoResolution extends Resolution {
  product: StoredProduct | undefined;
}

/**
 * The phytosanitary treatment (`AgriPhytosanitary`, CUE `TratamFito`) as a record kind of the records core
 * (shared/records/record-kind.ts). Its request is its wire body: the API's schema is also what the pointer keeps
 * (rows stored since the first release read as they are). Its history rows count each product's applications per
 * SIGPAC enclosure and day, for the label's count and interval (RD 1311/2012 art. 16, the product's authorisation).
 */
export const phytoKind: RecordKind<PhytoRequest, PhytoRecord, PhytoResolution, PhytoRecordView> = {
  urnType: 'AgriPhytosanitary',
  label: 'treatment',
  wire: { request: phytoRequestSchema },
  // The body the contract validated is the domain value as it is.
  toRequest: (body) => body as PhytoRequest,
  toWire: (request) => request,
  appliedAt: (request) => applicationDate(request.dateApplication),
  listValue: (request) => request.subtype.code,
  blockKeys: (farm, request) => blockKeysOf(request.idcp, farm),
  historyKeys: (farm, request) => guardKeysOf(historyEntryOf(farm, request)),
  updatedHistory: ({ rows, farm, removed, added }) =>
    updatedDayCounts(dayCountsOf(rows), removed && historyEntryOf(farm, removed), added && historyEntryOf(farm, added)),
  judge: ({ request, appliedAt, now, maxBackdateDays, farm, history, own, reference }) => {
    const applied = historyEntryOf(farm, request);
    const ownEntry = own && historyEntryOf(farm, own);
    const judged = checkApplication({
      request,
      appliedAt,
      now,
      maxBackdateDays,
      farm,
      ...productsContext(dayCountsOf(history), reference.products, request, applied.sigpacs, ownEntry),
      applicator: reference.applicators.get(request.applicator.user.ropo),
      advisor: request.advisor && reference.applicators.get(request.advisor.ropo),
      codeInForce: (catalogue, code, on) => reference.codes.isValid(catalogue, code, on),
      codes: reference.codes,
    });
    return {
      violations: judged.violations,
      resolution: { ...judged.resolution, product: reference.products.get(request.subtype.code) },
    };
  },
  view: ({ id, request, resolution, farm, exported, now }) => {
    // A treatment is judged before it is viewed, and judging refuses one whose product is not in the register.
    if (!resolution.product) throw new Error(`product ${request.subtype.code} was not resolved by the rules`);
    return buildRecord(id, request, resolution.product, resolution, farm, exported, now);
  },
  answer: recordAnswer,
  upgrade: upgradeRecord,
  format: RECORD_FORMAT,
  cue: treatmentCue,
};
