import { longestDays } from '../domain/backdate-window';
import { KindReads } from '../records/kind-entry';
import { irrigationListFilter } from './list-filters';
import { irrigationAnswer } from './record-answer';
import { IRRIGATION_FORMAT } from './stored-record';
import { IRRIGATION_RECORDING_WINDOW } from './recording-window';

/** What reading irrigations takes, without their rules: reads and lists never start them. */
export const irrigationReads: KindReads = {
  format: IRRIGATION_FORMAT,
  // The first format: nothing older to read.
  upgrade: (record) => record,
  answer: irrigationAnswer,
  listFilter: irrigationListFilter,
  // An irrigation may be registered up to the decree's month back, so the key index keeps that much at hand.
  keyIndexDays: () => longestDays(IRRIGATION_RECORDING_WINDOW),
};
