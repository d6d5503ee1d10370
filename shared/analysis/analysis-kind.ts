import { FarmIndex } from '../farms/farm-index';
import { JudgeContext, RecordKind, ViewInput } from '../records/record-kind';
import { Analysis } from './analysis';
import { ANALYSIS_BLOCK, analysisCue } from './cue-block';
import { analysisAnswer } from './record-answer';
import { analysisView } from './record-view';
import { ANALYSIS_RECORDING_WINDOW } from './recording-window';
import { dayOf, judgeAnalysis } from './rules';
import { ANALYSIS_FORMAT, StoredAnalysis } from './stored-record';
import { analysisFromStored, StoredAnalysisRequest, storedRequestOf } from './stored-request';
import { AnalysisAnswer, analysisFromWire, analysisWire, requestOf } from './wire-mapper';

/**
 * The analysis (`AgriAnalysis`, CUE `Analitica`, RD 1051/2022 arts. 5.b and 6) as a record kind of the records core
 * (shared/records/record-kind.ts): the domain value a request maps to, its rules and recording window, its stored
 * record and its one CUE block. No rule of it reads other records, so it keeps no history rows.
 */
export const analysisKind: RecordKind<Analysis, StoredAnalysis, null, AnalysisAnswer> = {
  urnType: 'AgriAnalysis',
  label: 'analysis',
  wire: analysisWire,
  toRequest: analysisFromWire,
  toWire: requestOf,
  toStored: storedRequestOf,
  // Pointers hold format 1 only (stored-request.ts).
  fromStored: (stored) => analysisFromStored(stored as StoredAnalysisRequest),
  appliedAt: dayOf,
  // The decree's month, whatever the operators set for treatments.
  recordingWindow: () => ANALYSIS_RECORDING_WINDOW,
  // Lists filter analyses by material (MATERIAL_ANALIZADO code), as treatments by product.
  listValue: (a) => String(a.material),
  // One Analitica block per report (cue-block.ts).
  blockKeys: () => [ANALYSIS_BLOCK],
  historyKeys: () => [],
  updatedHistory: () => new Map(),
  judge: (ctx: JudgeContext<Analysis>) => ({
    violations: judgeAnalysis({
      analysis: ctx.request,
      now: ctx.now,
      window: ctx.window,
      farm: ctx.farm,
      codes: ctx.reference.codes,
    }),
    resolution: null,
  }),
  view: ({ id, request, exported, now }: ViewInput<Analysis, null>) =>
    analysisView({ id, analysis: request, exported, now }),
  answer: (record, farm: FarmIndex) => analysisAnswer(record, farm),
  // The first format: nothing older to read.
  upgrade: (record) => record,
  format: ANALYSIS_FORMAT,
  cue: analysisCue,
};
