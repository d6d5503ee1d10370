import { EntityType, parseUrn } from '../domain/urn';

/** The record number of a URN of a record kind the contract already validated (`urn:ngsi-ld:<urnType>:<n>`). */
export function recordIdOf(urn: string, type: EntityType): number {
  const id = parseUrn(type, urn);
  if (id === null) throw new Error(`not a record URN, though the contract checked it: ${urn}`);
  return id;
}

/** The `ETag` header of an answer that carries a record, when it has one. */
export function withEtag(etag: string | undefined): Record<string, string> {
  return etag ? { ETag: etag } : {};
}

/** What an answer that carries a record says of its version, for `If-Match`, as the OpenAPI document describes it. */
export const ETAG_HEADER = {
  ETag: {
    description: "the record's version, strong: send it back as If-Match to change this version only",
    type: 'string',
  },
} as const;
