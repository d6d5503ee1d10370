import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv, { ValidateFunction } from 'ajv';

/**
 * The official CUE schema 3.11.4 from the team kit beside the project (never copied into it), compiled as DESIGN
 * section 10 says: nested `$id` values repeat, so they are dropped (they are labels only), and `strict: false` lets
 * the schema's non-standard `message` keyword through.
 */
export const CUE_SCHEMA_FILE = path.resolve(__dirname, '../../../shared/siex/cue-schema-3.11.4.json');

function dropNestedIds(node: unknown, root = true): unknown {
  if (Array.isArray(node)) return node.map((n) => dropNestedIds(n, false));
  if (node && typeof node === 'object') {
    return Object.fromEntries(
      Object.entries(node)
        .filter(([k]) => root || k !== '$id')
        .map(([k, v]) => [k, dropNestedIds(v, false)]),
    );
  }
  return node;
}

let compiled: ValidateFunction | undefined;

export function cueValidator(): ValidateFunction {
  compiled ??= new Ajv({ strict: false, allErrors: true }).compile(
    dropNestedIds(JSON.parse(readFileSync(CUE_SCHEMA_FILE, 'utf8'))) as object,
  );
  return compiled;
}
