import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildOpenApiDocument } from '../../shared/openapi/document';

/**
 * One licence, said the same everywhere an adopter looks: the LICENSE file (the Apache License 2.0 as apache.org
 * publishes it, unmodified), the OpenAPI document's `info.license`, the packages' `license` and the README.
 */
const root = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const SPDX = 'Apache-2.0';
/** SHA-256 of https://www.apache.org/licenses/LICENSE-2.0.txt. */
const APACHE_2_TEXT = 'cfc7749b96f63bd31c3c42b5c471bf756814053e847c10f3eb003417bc523d30';

describe('the licence', () => {
  it('is the Apache License 2.0, word for word, at the root and in the client package', () => {
    expect(createHash('sha256').update(read('LICENSE')).digest('hex')).toBe(APACHE_2_TEXT);
    expect(read('clients/typescript/LICENSE')).toBe(read('LICENSE'));
  });

  it('is what the OpenAPI document, the packages and the README say', () => {
    const { license } = buildOpenApiDocument().info as { license: { identifier: string } };
    const client = JSON.parse(read('clients/typescript/package.json')) as { license: string; files: string[] };
    const gateway = JSON.parse(read('package.json')) as { license: string };
    const readme = /^## Licence\n\n.*\(SPDX `([^`]+)`\), in \[LICENSE\]\(LICENSE\)/m.exec(read('README.md'))?.[1];
    expect({ openapi: license.identifier, client: client.license, gateway: gateway.license, readme }).toEqual({
      openapi: SPDX,
      client: SPDX,
      gateway: SPDX,
      readme: SPDX,
    });
    // The published client carries the text, not only its name.
    expect(client.files).toContain('LICENSE');
  });
});
