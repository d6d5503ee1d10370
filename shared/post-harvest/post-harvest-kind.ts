import { daysWindow } from '../domain/backdate-window';
import { RecordKind } from '../records/record-kind';
import { POST_HARVEST_BLOCK, postHarvestCue } from './cue-block';
import {
  POST_HARVEST_FORMAT,
  postHarvestOf,
  postHarvestRecord,
  PostHarvestTreatment,
  StoredPostHarvest,
  StoredPostHarvestRequest,
  storedRequestOf,
} from './post-harvest';
import { postHarvestAnswer } from './kind-reads';
import { judgePostHarvest, PostHarvestResolution } from './rules';
import { PostHarvestAnswer, postHarvestFromWire, postHarvestToWire, postHarvestWire } from './wire-mapper';

/**
 * The post-harvest treatment (`AgriPostHarvestTreatment`, CUE `TratamientosPostCosecha`) as a record kind of the
 * records core (shared/records/record-kind.ts). It keeps no history rows: produce has no enclosure to count
 * applications on, and no label's count or interval is stated per lot.
 */
export const postHarvestKind: RecordKind<
  PostHarvestTreatment,
  StoredPostHarvest,
  PostHarvestResolution,
  PostHarvestAnswer
> = {
  urnType: 'AgriPostHarvestTreatment',
  label: 'post-harvest treatment',
  wire: postHarvestWire,
  toRequest: postHarvestFromWire,
  toWire: postHarvestToWire,
  toStored: storedRequestOf,
  // Pointers hold format 1 only (post-harvest.ts).
  fromStored: (stored) => postHarvestOf(stored as StoredPostHarvestRequest),
  appliedAt: (t) => t.appliedAt,
  // RD 1311/2012 sets no deadline of its own for this record: the operators' MAX_BACKDATE_DAYS, as for treatments.
  recordingWindow: (settings) => daysWindow(settings.MAX_BACKDATE_DAYS),
  // Lists filter by the main product's register code, as the treatments' do.
  listValue: (t) => t.product.code,
  blockKeys: () => [POST_HARVEST_BLOCK],
  historyKeys: () => [],
  updatedHistory: () => new Map(),
  judge: judgePostHarvest,
  view: ({ id, request, exported, now }) => postHarvestRecord({ id, treatment: request, exported, now }),
  answer: (record, farm) => postHarvestAnswer(record, farm),
  // The first format: nothing older to read.
  upgrade: (record) => record,
  format: POST_HARVEST_FORMAT,
  cue: postHarvestCue,
};
