import { readFileSync } from 'node:fs';
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';

/**
 * The official CUE schema 3.11.4 (data/siex/), compiled the only way ajv v8 accepts it as published: its nested `$id`
 * values repeat, so they are dropped (they are labels only), and `strict: false` lets its non-standard `message`
 * keyword through.
 */

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

type CueValidation = { ok: true } | { ok: false; errors: ErrorObject[] };
export type CueValidator = (document: unknown) => CueValidation;

/**
 * Compiles the schema file into an ajv validator (its errors on `.errors` after a failed call); throws, saying which
 * file and why, when it is missing or unreadable.
 */
export function compileCueSchema(schemaPath: string): ValidateFunction {
  let schema: object;
  try {
    schema = dropNestedIds(JSON.parse(readFileSync(schemaPath, 'utf8'))) as object;
  } catch (e) {
    throw new Error(`cannot read the official CUE schema at ${schemaPath}: ${(e as Error).message}`, { cause: e });
  }
  return new Ajv({ strict: false, allErrors: true }).compile(schema);
}

/** The schema as a function answering each document's verdict with its errors. */
export function loadCueValidator(schemaPath: string): CueValidator {
  const validate = compileCueSchema(schemaPath);
  return (document) => (validate(document) ? { ok: true } : { ok: false, errors: validate.errors ?? [] });
}
