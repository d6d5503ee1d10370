import { readFileSync } from 'node:fs';

/** A page the local host serves beside the app's functions. */
export interface LocalPage {
  headers: Record<string, string>;
  body: () => Buffer;
}

/**
 * The page may load only from this host: Redoc's bundle would otherwise fetch its logo from Redocly's CDN, and a
 * reference that calls out to a third party on every view is what this page promises not to be. Inline styles and
 * blob workers are how Redoc renders and searches.
 */
const SAME_HOST_ONLY =
  "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; worker-src 'self' blob:; " +
  "font-src 'self' data:; object-src 'none'; base-uri 'none'";

/**
 * The API reference at `/docs`: Redoc's standalone bundle, from the npm package, rendering the document the app serves
 * at `/v1/openapi.json`. Everything comes from this host, so the page works offline and loads nothing from a CDN. It is
 * a local convenience of `npm start`; in Azure, API Management's developer portal shows the same document.
 */
export function apiDocsPages(): ReadonlyMap<string, LocalPage> {
  let bundle: Buffer | undefined;
  const html = Buffer.from(`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>SIEX gateway API reference</title>
  </head>
  <body>
    <redoc spec-url="/v1/openapi.json"></redoc>
    <script src="/docs/redoc.standalone.js"></script>
  </body>
</html>
`);
  return new Map<string, LocalPage>([
    [
      '/docs',
      {
        headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': SAME_HOST_ONLY },
        body: () => html,
      },
    ],
    [
      '/docs/redoc.standalone.js',
      {
        headers: { 'content-type': 'text/javascript; charset=utf-8' },
        // Read when first asked for: 1 MB that most runs (the tests) never serve.
        body: () => (bundle ??= readFileSync(require.resolve('redoc/bundles/redoc.standalone.js'))),
      },
    ],
  ]);
}
