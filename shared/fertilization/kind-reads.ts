import { longestDays } from '../domain/backdate-window';
import { KindReads } from '../records/kind-entry';
import { NUTRIENT_INPUTS } from '../rules/nutrient-balance';
import { fertilizationListFilter } from './list-filters';
import { nutrientInputs } from './nutrient-inputs';
import { fertilizationAnswer } from './record-answer';
import { FERTILIZATION_FORMAT, StoredFertilization } from './stored-record';
import { FERTILIZATION_RECORDING_WINDOW } from './recording-window';

/** What reading fertilizations takes, without their rules: reads and lists never start them. */
export const fertilizationReads: KindReads = {
  format: FERTILIZATION_FORMAT,
  // The first format: nothing older to read.
  upgrade: (record) => record,
  // What each fertilization brought its locations of N, P2O5 and K2O, for the nutrient balance.
  publishes: {
    [NUTRIENT_INPUTS]: {
      facts: (record, farm, reference) => nutrientInputs(record as StoredFertilization, farm, reference),
    },
  },
  answer: fertilizationAnswer,
  listFilter: fertilizationListFilter,
  // A fertilization may be registered up to the decree's month back, so the key index keeps that much at hand.
  keyIndexDays: () => longestDays(FERTILIZATION_RECORDING_WINDOW),
};
