import { FarmIndex } from '../farms/farm-index';
import { JudgeContext, RecordKind, ViewInput } from '../records/record-kind';
import { blockKeysOf } from '../siex/cue-mapping';
import { planCue } from './cue-block';
import { FertilizationPlan } from './plan';
import { planAnswer } from './record-answer';
import { planView } from './record-view';
import { PLAN_RECORDING_WINDOW } from './recording-window';
import { dayOf, judgePlan } from './rules';
import { PLAN_FORMAT, StoredPlan } from './stored-record';
import { planFromStored, StoredPlanRequest, storedRequestOf } from './stored-request';
import { PlanAnswer, planFromWire, planWire, requestOf } from './wire-mapper';

/**
 * The fertilization plan (`AgriFertilizationPlan`, CUE `PlanAbonado`, RD 1051/2022 arts. 5.a and 6) as a record kind of
 * the records core (shared/records/record-kind.ts): the domain value a request maps to, its rules and recording window,
 * its stored record and its CUE blocks. No rule of it reads other records, so it keeps no history rows; what it states
 * for the nutrient balance it publishes from its read side (kind-reads.ts).
 */
export const planKind: RecordKind<FertilizationPlan, StoredPlan, null, PlanAnswer> = {
  urnType: 'AgriFertilizationPlan',
  label: 'fertilization plan',
  wire: planWire,
  toRequest: planFromWire,
  toWire: requestOf,
  toStored: storedRequestOf,
  // Pointers hold format 1 only (stored-request.ts).
  fromStored: (stored) => planFromStored(stored as StoredPlanRequest),
  appliedAt: dayOf,
  // The decree's month, whatever the operators set for treatments.
  recordingWindow: () => PLAN_RECORDING_WINDOW,
  // Lists filter plans by the previous crop (PRODUCTOS code), as treatments by product.
  listValue: (p) => String(p.previousCrop),
  // One PlanAbonado block per crop and variety of its locations, as mapPlan writes them (cue-block.ts).
  blockKeys: (farm: FarmIndex, p) => blockKeysOf(p.idcp, farm),
  historyKeys: () => [],
  updatedHistory: () => new Map(),
  judge: (ctx: JudgeContext<FertilizationPlan>) => ({
    violations: judgePlan({
      plan: ctx.request,
      now: ctx.now,
      window: ctx.window,
      farm: ctx.farm,
      codes: ctx.reference.codes,
    }),
    resolution: null,
  }),
  view: ({ id, request, exported, now }: ViewInput<FertilizationPlan, null>) =>
    planView({ id, plan: request, exported, now }),
  answer: (record, farm: FarmIndex) => planAnswer(record, farm),
  // The first format: nothing older to read.
  upgrade: (record) => record,
  format: PLAN_FORMAT,
  cue: planCue,
};
