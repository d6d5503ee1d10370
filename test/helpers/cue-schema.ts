import { ValidateFunction } from 'ajv';
import { compileCueSchema } from '../../local/siex-simulator/cue-schema';
import { cueSchemaPath } from '../../local/siex-data';
import { findProjectRoot } from '../../local/stack';

/**
 * The official CUE schema 3.11.4 the project carries (data/siex/), compiled by the SIEX simulator's loader (so
 * tests and simulator judge documents alike), once per test file.
 */
const CUE_SCHEMA_FILE = cueSchemaPath(findProjectRoot(__dirname));

let compiled: ValidateFunction | undefined;

export function cueValidator(): ValidateFunction {
  compiled ??= compileCueSchema(CUE_SCHEMA_FILE);
  return compiled;
}
