import { isSandbox, sandboxSecrets, sandboxStep, smokeArgs } from '../../local/sandbox-setup';
import { settingsSchema } from '../../shared/config/settings';
import { Clock, systemClock } from '../../shared/time/clock';

/** The sandbox profile's azd hooks (local/sandbox-setup.ts): what each decides, without Azure. */

const noClock: Clock = {
  ...systemClock,
  sleep: () => Promise.reject(new Error('nothing outside the sandbox may wait')),
};

describe('the sandbox hooks', () => {
  it('run only in the sandbox profile, and say so elsewhere without touching Azure', async () => {
    expect(isSandbox({ SIEX_GATEWAY_PROFILE: 'sandbox' })).toBe(true);
    for (const profile of [undefined, '', 'standard', 'Sandbox'])
      expect(isSandbox({ SIEX_GATEWAY_PROFILE: profile })).toBe(false);
    for (const command of ['provision', 'deploy']) {
      const lines: string[] = [];
      // No vault, no storage account, no app: a step that tried any of them would throw.
      await sandboxStep(command, { SIEX_GATEWAY_PROFILE: 'standard' }, noClock, (l) => lines.push(l));
      expect(lines).toEqual([`Not the sandbox profile (SIEX_GATEWAY_PROFILE): no sandbox ${command} step.`]);
    }
  });

  it('refuse a command they do not have, whatever the profile', async () => {
    await expect(sandboxStep('provison', { SIEX_GATEWAY_PROFILE: 'standard' }, noClock)).rejects.toThrow(
      /usage: sandbox-setup\.js provision\|deploy/,
    );
  });

  it("write the simulator's user, a password and a webhook signing key the gateway accepts, each random", () => {
    const secrets = sandboxSecrets({ SIEX_SIMULATOR_USERNAME: 'siex-sandbox' });
    expect(secrets.map((s) => s.name)).toEqual(['siex-username', 'siex-password', 'webhook-signing-key']);
    const [username, password, signing] = secrets.map((s) => s.make());
    expect(username).toBe('siex-sandbox');
    expect(password).not.toBe(secrets[1].make());
    expect(Buffer.from(password, 'base64')).toHaveLength(48);
    expect(settingsSchema.shape.WEBHOOK_SIGNING_KEY.safeParse(signing).success).toBe(true);
    expect(() => sandboxSecrets({})).toThrow(/SIEX_SIMULATOR_USERNAME/);
  });

  it('run the smoke collection after a deploy only with the key pair kept for it', () => {
    expect(smokeArgs({ APIM_GATEWAY_URL: 'https://apim.example/siex' })).toEqual({
      skipped: expect.stringMatching(/SANDBOX_SMOKE_SID_KEY and SANDBOX_SMOKE_API_KEY/),
    });
    expect(smokeArgs({ SANDBOX_SMOKE_SID_KEY: 's', APIM_GATEWAY_URL: 'https://apim.example/siex' })).toHaveProperty(
      'skipped',
    );
    expect(
      smokeArgs({
        SANDBOX_SMOKE_SID_KEY: 's',
        SANDBOX_SMOKE_API_KEY: 'a',
        APIM_GATEWAY_URL: 'https://apim.example/siex',
      }),
    ).toEqual({ args: ['--url', 'https://apim.example/siex', '--sid-key', 's', '--api-key', 'a', '--quiet'] });
    expect(() => smokeArgs({ SANDBOX_SMOKE_SID_KEY: 's', SANDBOX_SMOKE_API_KEY: 'a' })).toThrow(/APIM_GATEWAY_URL/);
  });
});
