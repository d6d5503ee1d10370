import { ValidateFunction } from 'ajv';
import { compiledCueSchemaFile } from '../support/compiled-cue-schema';

/**
 * The official CUE schema 3.11.4 the project carries (data/siex/), compiled by the SIEX simulator's loader (so
 * tests and simulator judge documents alike), once per jest run by its global setup (compiled-cue-schema.ts).
 */
let compiled: ValidateFunction | undefined;

export function cueValidator(): ValidateFunction {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a module the global setup wrote, by its path
  compiled ??= require(compiledCueSchemaFile()) as ValidateFunction;
  return compiled;
}
