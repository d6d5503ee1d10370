import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hashKey } from '../../shared/clients/keys';
import { runAdminCli } from '../helpers/admin-cli';
import { CAMPAIGN, testClient, testFarm, uniqueRea } from '../helpers/dataset';
import { get, Keys } from '../helpers/http';

/**
 * A SID rotation with overlap and a dataset of hashed keys, as an operator runs them (docs/operations.md, "Rotating
 * keys": `npm run admin -- new-key` and `import`), checked over HTTP through the local runner (AUTH_MODE=local; the
 * stack caches no client, REFERENCE_CACHE_SECONDS=0).
 */
const rea = uniqueRea();
const FARM = `/v1/siex/farms?rea=${rea}&year=${CAMPAIGN}`;
const farm = testFarm(rea);

function writeDataset(json: unknown): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'siex-keys-')), 'dataset.json');
  writeFileSync(file, JSON.stringify(json, null, 2));
  return file;
}

async function load(json: unknown): Promise<void> {
  const r = await runAdminCli(['import', writeDataset(json)]);
  expect([r.code, r.stderr]).toEqual([0, '']);
}

async function newKey(): Promise<{ key: string; hash: string }> {
  const r = await runAdminCli(['new-key']);
  expect(r.code).toBe(0);
  return { key: /^key {2}(\S+)$/m.exec(r.stdout)![1], hash: /^hash (\S+)$/m.exec(r.stdout)![1] };
}

const status = async (keys: Keys) => (await get(FARM, keys)).status;

describe('SID keys over HTTP', () => {
  it('authenticates a client with either of its two SID keys during a rotation, and never with one removed', async () => {
    const client = testClient('rotation', [rea]);
    const old = client.sidKey;
    await load({ clients: [client], farms: [farm] });
    expect(await status(client)).toBe(200);

    const next = await newKey();
    await load({ clients: [{ ...client, sidKey: next.hash, previousSidKey: old }], farms: [farm] });
    expect(await status({ sidKey: old, apiKey: client.apiKey })).toBe(200);
    expect(await status({ sidKey: next.key, apiKey: client.apiKey })).toBe(200);

    await load({ clients: [{ ...client, sidKey: next.hash }], farms: [farm] });
    const refused = await get(FARM, { sidKey: old, apiKey: client.apiKey });
    expect(refused.status).toBe(401);
    expect(refused.json.errors.map((e: { code: string }) => e.code)).toEqual(['INVALID_CREDENTIALS']);
    expect(await status({ sidKey: next.key, apiKey: client.apiKey })).toBe(200);
  });

  it('serves a client loaded from a dataset of hashed keys with the keys behind the hashes, and not with the hashes', async () => {
    const [sid, api] = [await newKey(), await newKey()];
    const client = { ...testClient('hashed', [rea]), sidKey: sid.hash, apiKey: api.hash };
    await load({ clients: [client], farms: [farm] });
    expect(await status({ sidKey: sid.key, apiKey: api.key })).toBe(200);
    expect(await status({ sidKey: sid.hash, apiKey: api.key })).toBe(401);
    expect(await status({ sidKey: sid.key, apiKey: api.hash })).toBe(401);
  });

  it('refuses a bad dataset with every violation and writes none of it: the keys it held keep working', async () => {
    const client = testClient('kept', [rea]);
    await load({ clients: [client], farms: [farm] });
    const other = testClient('bad', [rea]);
    const r = await runAdminCli([
      'import',
      writeDataset({
        clients: [
          { ...client, sidKey: `sha256:${'Z'.repeat(64)}`, previousSidKey: client.sidKey },
          { ...other, sidKey: `sha256:${hashKey(client.sidKey)}`, previousSidKey: 'short' },
        ],
        farms: [farm],
      }),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('rejected, nothing was written. 3 problem(s)');
    expect(r.stderr).toContain('$.clients[0].sidKey: a hashed key is sha256: and 64 lower-case hex digits');
    expect(r.stderr).toContain('$.clients[1].sidKey: key repeats $.clients[0].previousSidKey');
    expect(r.stderr).toContain('$.clients[1].previousSidKey: a key must be at least 32 characters');
    expect(await status(client)).toBe(200);
    expect(await status(other)).toBe(401);
  });
});
