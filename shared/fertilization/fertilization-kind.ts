import { z } from 'zod';
import { SiexCodes } from '../catalog/siex-codes/siex-codes';
import { FarmIndex } from '../farms/farm-index';
import { blockKeysOf } from '../siex/cue-mapping';
import { JudgeContext, RecordKind, ViewInput } from '../records/record-kind';
import { UnreadableRow } from '../records/unreadable-row';
import { fertilizationCue } from './cue-block';
import { Fertilization } from './fertilization';
import { ManureContribution, ManureNitrogenRow, manureRowKeys, updatedManureRows } from './manure-nitrogen';
import { nitrogenPerHa } from './nitrogen';
import { FertilizationResolution, judgeFertilization, startOf } from './rules';
import { fertilizationView } from './record-view';
import { fertilizationAnswer } from './record-answer';
import { FERTILIZATION_RECORDING_WINDOW } from './recording-window';
import { FERTILIZATION_FORMAT, StoredFertilization } from './stored-record';
import { fertilizationFromStored, StoredFertilizationRequest, storedRequestOf } from './stored-request';
import { FertilizationAnswer, fertilizationFromWire, fertilizationWire, requestOf } from './wire-mapper';

/**
 * A manure nitrogen row as the records core hands it over (a JSON document it does not read): grams, counted exactly,
 * so never past 2^53.
 */
const manureRowSchema = z.object({
  campaigns: z.record(z.string(), z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)),
});

function rowsOf(rows: ReadonlyMap<string, unknown>): Map<string, ManureNitrogenRow> {
  return new Map(
    [...rows].map(([key, row]) => {
      const read = manureRowSchema.safeParse(row);
      if (!read.success) throw new UnreadableRow(key, z.prettifyError(read.error));
      return [key, read.data];
    }),
  );
}

/** What a fertilization brings to the manure nitrogen rows, counted through the units catalogue in force. */
function contribution(f: Fertilization | null, codes: SiexCodes): ManureContribution | null {
  if (!f) return null;
  // A version refused for its unit or density brings no counted nitrogen; a stored one always has its figure.
  return { fertilization: f, kgPerHa: nitrogenPerHa(f, codes.units).kgPerHa ?? 0 };
}

/**
 * The fertilization (`AgriFertilize`, CUE `Fertilizacion`) as a record kind of the records core
 * (shared/records/record-kind.ts): the domain value a request maps to (from the wire, wire-mapper.ts; from its pointer,
 * stored-request.ts), its rules and recording window, its stored record (stored-record.ts, record-view.ts), the manure
 * nitrogen rows its changes read and write, and its CUE blocks. The SIEX catalogues in force (the units the nitrogen is
 * counted through, the codes the rules check) come with the reference data the core hands the kind.
 */
export const fertilizationKind: RecordKind<
  Fertilization,
  StoredFertilization,
  FertilizationResolution,
  FertilizationAnswer
> = {
  urnType: 'AgriFertilize',
  label: 'fertilization',
  wire: fertilizationWire,
  toRequest: fertilizationFromWire,
  toWire: requestOf,
  toStored: storedRequestOf,
  // Pointers hold format 1 only (stored-request.ts).
  fromStored: (stored) => fertilizationFromStored(stored as StoredFertilizationRequest),
  appliedAt: startOf,
  // The decree's month, whatever the operators set for treatments.
  recordingWindow: () => FERTILIZATION_RECORDING_WINDOW,
  // Lists filter fertilizations by material (MAT_FERTI code), as treatments by product.
  listValue: (f) => String(f.material.code),
  // One Fertilizacion block per crop and variety of its locations, as mapFertilization writes them (cue-block.ts).
  blockKeys: (farm: FarmIndex, f) => blockKeysOf(f.idcp.map(String), farm),
  historyKeys: (farm: FarmIndex, f) => manureRowKeys(farm, f),
  updatedHistory: ({ rows, farm, removed, added, reference }) =>
    updatedManureRows(rowsOf(rows), farm, contribution(removed, reference.codes), contribution(added, reference.codes)),
  judge: (ctx: JudgeContext<Fertilization>) =>
    judgeFertilization({
      fertilization: ctx.request,
      now: ctx.now,
      window: ctx.window,
      farm: ctx.farm,
      codes: ctx.reference.codes,
      history: rowsOf(ctx.history),
      own: ctx.own,
    }),
  view: ({ id, request, resolution, exported, now }: ViewInput<Fertilization, FertilizationResolution>) =>
    fertilizationView({
      id,
      fertilization: request,
      nitrogenKgPerHa: resolution.nitrogenKgPerHa ?? 0,
      detail: resolution.detail,
      exported,
      now,
    }),
  answer: (record, farm) => fertilizationAnswer(record, farm),
  // The first format: nothing older to read.
  upgrade: (record) => record,
  format: FERTILIZATION_FORMAT,
  cue: fertilizationCue,
};
