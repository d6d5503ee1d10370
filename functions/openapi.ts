import { HttpResponseInit } from '@azure/functions';
import { buildOpenApiDocument } from '../shared/openapi/document';

/** Rendered once: the document only changes with the code. Public, so tools can fetch it without keys. */
let rendered: string | undefined;

export function serveOpenApi(): HttpResponseInit {
  rendered ??= JSON.stringify(buildOpenApiDocument(), null, 2);
  return { status: 200, headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: rendered };
}
