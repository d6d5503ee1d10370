import { daysWindow } from '../domain/backdate-window';
import { RecordKind } from '../records/record-kind';
import { TREATED_SEED_BLOCK, treatedSeedCue } from './cue-block';
import { treatedSeedAnswer } from './kind-reads';
import { judgeTreatedSeed, TreatedSeedResolution } from './rules';
import {
  StoredTreatedSeed,
  StoredTreatedSeedRequest,
  storedRequestOf,
  TREATED_SEED_FORMAT,
  TreatedSeed,
  treatedSeedOf,
  treatedSeedRecord,
} from './treated-seed';
import { TreatedSeedAnswer, treatedSeedFromWire, treatedSeedToWire, treatedSeedWire } from './wire-mapper';

/**
 * The use of treated seed (`AgriTreatedSeed`, CUE `UsoSemillaTratada`) as a record kind of the records core
 * (shared/records/record-kind.ts). It keeps no history rows: seed has no enclosure to count applications on, and no
 * label's count or interval is stated per lot of seed.
 */
export const treatedSeedKind: RecordKind<TreatedSeed, StoredTreatedSeed, TreatedSeedResolution, TreatedSeedAnswer> = {
  urnType: 'AgriTreatedSeed',
  label: 'treated seed',
  wire: treatedSeedWire,
  toRequest: treatedSeedFromWire,
  toWire: treatedSeedToWire,
  toStored: storedRequestOf,
  // Pointers hold format 1 only (treated-seed.ts).
  fromStored: (stored) => treatedSeedOf(stored as StoredTreatedSeedRequest),
  appliedAt: (s) => s.usedAt,
  // RD 1311/2012 sets no deadline of its own for this record: the operators' MAX_BACKDATE_DAYS, as for treatments.
  recordingWindow: (settings) => daysWindow(settings.MAX_BACKDATE_DAYS),
  // Lists filter by the crop sown (a PRODUCTOS code): a seed lot may carry no product at all.
  listValue: (s) => s.crop.code,
  blockKeys: () => [TREATED_SEED_BLOCK],
  historyKeys: () => [],
  updatedHistory: () => new Map(),
  judge: judgeTreatedSeed,
  view: ({ id, request, exported, now }) => treatedSeedRecord({ id, seed: request, exported, now }),
  answer: (record, farm) => treatedSeedAnswer(record, farm),
  // The first format: nothing older to read.
  upgrade: (record) => record,
  format: TREATED_SEED_FORMAT,
  cue: treatedSeedCue,
};
