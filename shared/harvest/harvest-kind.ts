import { daysWindow } from '../domain/backdate-window';
import { JudgeContext, RecordKind, ViewInput } from '../records/record-kind';
import { HARVEST_HOLDS, holdsSince } from '../rules/harvest-holds';
import { HARVEST_BLOCK, harvestCue } from './cue-block';
import { Harvest } from './harvest';
import { harvestAnswer } from './record-answer';
import { HarvestResolution, judgeHarvest, startOf } from './rules';
import { HARVEST_FORMAT, harvestRecord, StoredHarvest } from './stored-record';
import { harvestFromStored, StoredHarvestRequest, storedRequestOf } from './stored-request';
import { HarvestAnswer, harvestFromWire, harvestToWire, harvestWire } from './wire-mapper';

/**
 * The harvest (`AgriHarvest`, CUE `Cosecha`) as a record kind of the records core (shared/records/record-kind.ts): the
 * domain value a request maps to, its rules and recording window, its stored record and its one CUE block. It keeps no
 * history rows: no rule counts harvests against each other.
 */
export const harvestKind: RecordKind<Harvest, StoredHarvest, HarvestResolution, HarvestAnswer> = {
  urnType: 'AgriHarvest',
  label: 'harvest',
  wire: harvestWire,
  toRequest: harvestFromWire,
  toWire: harvestToWire,
  toStored: storedRequestOf,
  // Pointers hold format 1 only (stored-request.ts).
  fromStored: (stored) => harvestFromStored(stored as StoredHarvestRequest),
  appliedAt: startOf,
  // No decree sets a time to record a harvest in (RD 1054/2022 makes the notebook, not a deadline for this block), so
  // the operators' MAX_BACKDATE_DAYS applies, as for treatments.
  recordingWindow: (settings) => daysWindow(settings.MAX_BACKDATE_DAYS),
  // Lists filter harvests by their plant product (PROD_VEGETAL Id).
  listValue: (h) => String(h.product),
  blockKeys: () => [HARVEST_BLOCK],
  historyKeys: () => [],
  updatedHistory: () => new Map(),
  judge: (ctx: JudgeContext<Harvest>) =>
    judgeHarvest({
      harvest: ctx.request,
      now: ctx.now,
      window: ctx.window,
      farm: ctx.farm,
      codes: ctx.reference.codes,
      holds: ctx.facts ?? [],
    }),
  // What holds a harvest: the pre-harvest intervals of the treatments on its ground (pre-harvest-rules.ts).
  facts: { topic: HARVEST_HOLDS, since: (h) => holdsSince(h.start) },
  view: ({ id, request, exported, now }: ViewInput<Harvest, HarvestResolution>) =>
    harvestRecord({ id, harvest: request, exported, now }),
  answer: (record, farm) => harvestAnswer(record, farm),
  // The first format: nothing older to read.
  upgrade: (record) => record,
  format: HARVEST_FORMAT,
  cue: harvestCue,
};
