import { StoredProduct } from '../catalog/catalog-store';
import { daysWindow } from '../domain/backdate-window';
import { RecordKind } from '../records/record-kind';
import { blockKeysOf } from '../siex/cue-mapping';
import { dayCountsOf, guardKeysOf, historyEntryOf, productsContext, updatedDayCounts } from './application-change';
import { treatmentCue } from './cue-block';
import { recordAnswer } from './record-answer';
import { buildRecord } from './record-view';
import { Resolution } from './rule-context';
import { checkApplication } from './rules';
import { RECORD_FORMAT, StoredTreatment, upgradeRecord } from './stored-record';
import { StoredTreatmentRequest, storedRequestOf, treatmentOf } from './stored-request';
import { Treatment } from './treatment';
import { TreatmentAnswer, treatmentFromWire, treatmentWire, wireOf } from './wire-mapper';

/** What judging a treatment resolved: the uses that allow it, and its main product's register entry (for the view). */
export interface PhytoResolution extends Resolution {
  product: StoredProduct | undefined;
}

/**
 * The phytosanitary treatment (`AgriPhytosanitary`, CUE `TratamFito`) as a record kind of the records core
 * (shared/records/record-kind.ts). Its request maps to its domain value (treatment.ts) from the wire (wire-mapper.ts)
 * and from the form its pointer keeps (stored-request.ts); its record is stored as stored-record.ts says. Its history
 * rows count each product's applications per SIGPAC enclosure and day, for the label's count and interval (RD
 * 1311/2012 art. 16, the product's authorisation). It may be registered MAX_BACKDATE_DAYS back, the operators'
 * setting (the spec: 7, "may vary with configuration").
 */
export const phytoKind: RecordKind<Treatment, StoredTreatment, PhytoResolution, TreatmentAnswer> = {
  urnType: 'AgriPhytosanitary',
  label: 'treatment',
  wire: treatmentWire,
  toRequest: treatmentFromWire,
  toWire: wireOf,
  toStored: storedRequestOf,
  // Pointers hold format 1 only (stored-request.ts).
  fromStored: (stored) => treatmentOf(stored as StoredTreatmentRequest),
  appliedAt: (t) => t.appliedAt,
  recordingWindow: (settings) => daysWindow(settings.MAX_BACKDATE_DAYS),
  // A measure names no product: no product filter finds it.
  listValue: (t) => t.product?.code ?? '',
  blockKeys: (farm, t) => blockKeysOf(t.idcp.map(String), farm),
  historyKeys: (farm, t) => guardKeysOf(historyEntryOf(farm, t)),
  updatedHistory: ({ rows, farm, removed, added }) =>
    updatedDayCounts(dayCountsOf(rows), removed && historyEntryOf(farm, removed), added && historyEntryOf(farm, added)),
  judge: ({ request: treatment, appliedAt, now, window, farm, history, own, reference }) => {
    const applied = historyEntryOf(farm, treatment);
    const ownEntry = own && historyEntryOf(farm, own);
    const judged = checkApplication({
      treatment,
      appliedAt,
      now,
      window,
      farm,
      ...productsContext(dayCountsOf(history), reference.products, treatment, applied.sigpacs, ownEntry),
      applicator: reference.applicators.get(treatment.applicator.ropo),
      advisor: treatment.advisor ? reference.applicators.get(treatment.advisor.ropo) : undefined,
      codeInForce: (catalogue, code, on) => reference.codes.isValid(catalogue, code, on),
      codes: reference.codes,
      ...(own ? { ownMachines: own.machines ?? [] } : {}),
    });
    return {
      violations: judged.violations,
      resolution: {
        ...judged.resolution,
        product: treatment.product ? reference.products.get(treatment.product.code) : undefined,
      },
    };
  },
  view: ({ id, request, resolution, farm, exported, now }) => {
    // A treatment is judged before it is viewed, and judging refuses one whose product is not in the register.
    if (request.product && !resolution.product)
      throw new Error(`product ${request.product.code} was not resolved by the rules`);
    return buildRecord(id, request, resolution.product, resolution, farm, exported, now);
  },
  answer: recordAnswer,
  upgrade: upgradeRecord,
  format: RECORD_FORMAT,
  cue: treatmentCue,
};
