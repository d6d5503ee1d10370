import { readFileSync } from 'node:fs';
import Ajv, { ErrorObject, Options, ValidateFunction } from 'ajv';
import standaloneCode from 'ajv/dist/standalone';
import { CueSection } from '../../shared/siex/iuws-protocol';
import { cueSections } from './cue-sections';

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

/** The schema file as JSON; throws, saying which file and why, when it is missing or unreadable. */
function readCueSchema(schemaPath: string): unknown {
  try {
    return JSON.parse(readFileSync(schemaPath, 'utf8'));
  } catch (e) {
    throw new Error(`cannot read the official CUE schema at ${schemaPath}: ${(e as Error).message}`, { cause: e });
  }
}

const ajvFor = (options: Options = {}) => new Ajv({ strict: false, allErrors: true, ...options });

const compile = (schema: unknown): ValidateFunction => ajvFor().compile(dropNestedIds(schema) as object);

/**
 * The validator loadCueSchema makes, as the source of a CommonJS module (ajv's standalone code), which requires ajv's runtime helpers
 * by package name. Compiling the schema takes a second or two of CPU; the tests compile it once per run with this.
 */
export function cueSchemaModule(schemaPath: string): string {
  const ajv = ajvFor({ code: { source: true } });
  return standaloneCode(ajv, ajv.compile(dropNestedIds(readCueSchema(schemaPath)) as object));
}

/**
 * The schema as the simulator uses it: a function answering each document's verdict with its errors, and the
 * activity sections it defines, each with its IdAjena field (cue-sections.ts).
 */
export function loadCueSchema(schemaPath: string): { validator: CueValidator; sections: CueSection[] } {
  const schema = readCueSchema(schemaPath);
  const validate = compile(schema);
  return {
    validator: (document) => (validate(document) ? { ok: true } : { ok: false, errors: validate.errors ?? [] }),
    sections: cueSections(schema),
  };
}
