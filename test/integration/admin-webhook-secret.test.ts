import * as fs from 'node:fs';
import path from 'node:path';
import { LOCAL_WEBHOOK_SIGNING_KEY } from '../../local/webhook-receiver/server';
import { webhookSecret } from '../../shared/notify/webhook-secret';
import { runAdminCli } from '../helpers/admin-cli';

/**
 * `npm run admin -- webhook-secret` derives a client's secret from the signing key and reads nothing else: no storage
 * connection is asked for (here there is none), and the README's one command gives the local stack's.
 */
const KEY = 'a webhook signing key of at least thirty-two characters';

describe('admin webhook-secret, without a storage connection', () => {
  it("prints the README's command's secret: the demo client's under npm start's key", async () => {
    const readme = fs.readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');
    const command = /^npm run admin -- (webhook-secret \S+ --local)$/m.exec(readme)?.[1];
    expect(command).toBeDefined();
    const { code, stdout, stderr } = await runAdminCli(command!.split(' '), null);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout.trim()).toBe(webhookSecret(LOCAL_WEBHOOK_SIGNING_KEY, 'agrosoft-levante'));
  });

  it('prints the secret WEBHOOK_SIGNING_KEY gives the client, as the gateway signs with it', async () => {
    const { code, stdout } = await runAdminCli(['webhook-secret', 'campo-digital'], null, { WEBHOOK_SIGNING_KEY: KEY });
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(webhookSecret(KEY, 'campo-digital'));
  });

  it('prints the secret of a later generation, as a rotation (POST /v1/webhooks/rotate) makes it', async () => {
    const { code, stdout } = await runAdminCli(['webhook-secret', 'campo-digital', '--generation', '2'], null, {
      WEBHOOK_SIGNING_KEY: KEY,
    });
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(webhookSecret(KEY, 'campo-digital', 2));
    const bad = await runAdminCli(['webhook-secret', 'campo-digital', '--generation', 'two', '--local'], null);
    expect([bad.code, bad.stderr.split('\n')[0]]).toEqual([2, '--generation is a whole number from 0, not two']);
  });

  it('says what it needs when there is no key, or a key the gateway would not take', async () => {
    const none = await runAdminCli(['webhook-secret', 'campo-digital'], null, { WEBHOOK_SIGNING_KEY: '' });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^webhook-secret needs WEBHOOK_SIGNING_KEY in the environment .* or --local/);
    const short = await runAdminCli(['webhook-secret', 'campo-digital'], null, { WEBHOOK_SIGNING_KEY: 'short' });
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/^WEBHOOK_SIGNING_KEY: at least 32 characters/);
  });
});
