import { FarmIndex } from '../farms/farm-index';
import { blockKeysOf } from '../siex/cue-mapping';
import { JudgeContext, RecordKind, ViewInput } from '../records/record-kind';
import { irrigationCue } from './cue-block';
import { Irrigation } from './irrigation';
import { IrrigationResolution, judgeIrrigation, startOf } from './rules';
import { irrigationView } from './record-view';
import { irrigationAnswer } from './record-answer';
import { IRRIGATION_RECORDING_WINDOW } from './recording-window';
import { IRRIGATION_FORMAT, StoredIrrigation } from './stored-record';
import { irrigationFromStored, StoredIrrigationRequest, storedRequestOf } from './stored-request';
import { IrrigationAnswer, irrigationFromWire, irrigationWire, requestOf } from './wire-mapper';

/**
 * The irrigation (`AgriIrrigation`, CUE `Riego`, RD 1051/2022 art. 5) as a record kind of the records core
 * (shared/records/record-kind.ts): the domain value a request maps to (from the wire, wire-mapper.ts; from its pointer,
 * stored-request.ts), its rules and recording window, its stored record (stored-record.ts, record-view.ts) and its CUE
 * blocks. No rule of it reads other records, so it keeps no history rows.
 */
export const irrigationKind: RecordKind<Irrigation, StoredIrrigation, IrrigationResolution, IrrigationAnswer> = {
  urnType: 'AgriIrrigation',
  label: 'irrigation',
  wire: irrigationWire,
  toRequest: irrigationFromWire,
  toWire: requestOf,
  toStored: storedRequestOf,
  // Pointers hold format 1 only (stored-request.ts).
  fromStored: (stored) => irrigationFromStored(stored as StoredIrrigationRequest),
  appliedAt: startOf,
  // The decree's month, whatever the operators set for treatments.
  recordingWindow: () => IRRIGATION_RECORDING_WINDOW,
  // Lists filter irrigations by system (SIST_RIEGO code), as treatments by product.
  listValue: (i) => String(i.system),
  // One Riego block per crop and variety of its locations, as mapIrrigation writes them (cue-block.ts).
  blockKeys: (farm: FarmIndex, i) => blockKeysOf(i.idcp.map(String), farm),
  historyKeys: () => [],
  updatedHistory: () => new Map(),
  judge: (ctx: JudgeContext<Irrigation>) =>
    judgeIrrigation({
      irrigation: ctx.request,
      now: ctx.now,
      window: ctx.window,
      farm: ctx.farm,
      codes: ctx.reference.codes,
    }),
  view: ({ id, request, resolution, exported, now }: ViewInput<Irrigation, IrrigationResolution>) =>
    irrigationView({
      id,
      irrigation: request,
      // A view is written only for a request judged without violations, whose water is then known.
      water: resolution.water ?? { m3: 0, perHa: false },
      exported,
      now,
    }),
  answer: (record, farm) => irrigationAnswer(record, farm),
  // The first format: nothing older to read.
  upgrade: (record) => record,
  format: IRRIGATION_FORMAT,
  cue: irrigationCue,
};
