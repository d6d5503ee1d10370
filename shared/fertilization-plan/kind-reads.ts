import { longestDays } from '../domain/backdate-window';
import { KindReads } from '../records/kind-entry';
import { NUTRIENT_PLANS } from '../rules/nutrient-balance';
import { planListFilter } from './list-filters';
import { planNeeds } from './nutrient-needs';
import { planAnswer } from './record-answer';
import { PLAN_RECORDING_WINDOW } from './recording-window';
import { PLAN_FORMAT, StoredPlan } from './stored-record';

/** What reading plans takes, without their rules: reads and lists never start them. */
export const planReads: KindReads = {
  format: PLAN_FORMAT,
  // The first format: nothing older to read.
  upgrade: (record) => record,
  // What a plan needs of each nutrient, for the nutrient balance.
  publishes: { [NUTRIENT_PLANS]: { facts: (record, farm) => planNeeds(record as StoredPlan, farm) } },
  answer: planAnswer,
  listFilter: planListFilter,
  // A plan may be registered up to the decree's month back, so the key index keeps that much at hand.
  keyIndexDays: () => longestDays(PLAN_RECORDING_WINDOW),
};
