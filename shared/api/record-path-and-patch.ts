import { z } from 'zod';

/**
 * The record named in the path of a read, history, amendment or deletion of one record kind: its URN, as registration
 * answered it (URL-encoded or not). `urnType` is the NGSI-LD type of the kind (its entry's, shared/records/kind-entry.ts).
 */
export function recordParamsSchemaOf(urnType: string) {
  return z.object({
    id: z
      .string()
      .regex(new RegExp(`^urn:ngsi-ld:${urnType}:[1-9]\\d{0,9}$`), `urn:ngsi-ld:${urnType}:<n>`)
      .describe(`the record URN, e.g. urn:ngsi-ld:${urnType}:1 (URL-encoded or not)`),
  });
}

/**
 * An amendment of one record kind: a JSON Merge Patch (RFC 7396) of the fields of its registration request (`requestId`
 * names that request's schema). A member replaces the field, null removes an optional one, an object merges member by
 * member; the merged request is validated whole, so the patch itself is any object. `examples` shows typical patches.
 */
export function mergePatchSchemaOf(requestId: string, examples: string, schemaId: string) {
  return z
    .record(z.string(), z.unknown())
    .describe(`JSON Merge Patch (RFC 7396) of the fields of ${requestId}: ${examples}`)
    .meta({ id: schemaId });
}
