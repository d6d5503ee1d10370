import { fertilizationCue } from '../../shared/fertilization/cue-block';
import { harvestCue } from '../../shared/harvest/cue-block';
import { treatmentCue } from '../../shared/phyto/cue-block';
import {
  CueFields,
  cueNumber as cueNumberIn,
  descriptorProblems as problemsIn,
  ENVELOPE_FIELDS,
} from '../../shared/siex/cue-descriptor';

export { leafCount, roundTo } from '../../shared/siex/cue-descriptor';

/**
 * The whole descriptor the gateway writes by: the CUADERNO envelope's fields and each record kind's section, as its
 * `cue` mapping exposes them, so that a document holding blocks of several kinds is checked whole.
 */
export const CUE_FIELDS: CueFields = Object.assign(
  {},
  ENVELOPE_FIELDS,
  ...[treatmentCue, fertilizationCue, harvestCue].map((cue) => cue.fields),
);

/** `value` rounded to the decimals of the field at `path`. */
export const cueNumber = (path: string, value: number) => cueNumberIn(CUE_FIELDS, path, value);

/** Every value of a CUE document checked against the whole descriptor. */
export const descriptorProblems = (doc: unknown) => problemsIn(CUE_FIELDS, doc);
