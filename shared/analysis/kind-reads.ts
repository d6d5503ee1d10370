import { longestDays } from '../domain/backdate-window';
import { KindReads } from '../records/kind-entry';
import { analysisListFilter } from './list-filters';
import { analysisAnswer } from './record-answer';
import { ANALYSIS_FORMAT } from './stored-record';
import { ANALYSIS_RECORDING_WINDOW } from './recording-window';

/** What reading analyses takes, without their rules: reads and lists never start them. */
export const analysisReads: KindReads = {
  format: ANALYSIS_FORMAT,
  // The first format: nothing older to read.
  upgrade: (record) => record,
  answer: analysisAnswer,
  listFilter: analysisListFilter,
  // An analysis may be registered up to the decree's month back, so the key index keeps that much at hand.
  keyIndexDays: () => longestDays(ANALYSIS_RECORDING_WINDOW),
};
