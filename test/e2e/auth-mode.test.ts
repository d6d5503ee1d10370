import { findProjectRoot } from '../../local/stack';
import { RunnerProcess } from '../../local/runner/process';
import { dataset, testClient, testFarm, uniqueRea } from '../helpers/dataset';
import { call, Keys, Reply, seed } from '../helpers/http';
import { startHttpOnlyRunner } from '../helpers/http-only';
import { checkProblemShape } from '../helpers/spec-shapes';
import { storageSettings } from '../support/stack-env';

/**
 * AUTH_MODE over HTTP, against the compiled app in the local runner (the bundle Azure runs), started here with the
 * settings of each case beside the shared stack's runner (which runs in local mode). Without AUTH_MODE the app does
 * not start. In apim mode it believes API Management's X-Apim-Subscription-Id only on requests App Service
 * authentication admitted as API Management's identity (X-MS-CLIENT-PRINCIPAL-ID). Locally nothing sets or strips
 * those platform headers, so these tests show the app's own rule; in Azure the platform refuses such requests first
 * (infra/modules/functionApp.bicep, authsettingsV2).
 */
const ROOT = findProjectRoot(__dirname);
const APIM = '3a6f0e2c-8b1d-4c7e-9f20-5d4b3c2a1e0f';
const rea = uniqueRea();
const FARM = `/v1/siex/farms?rea=${rea}&year=2026`;
const client = testClient('mode', [rea], { apimSubscriptionId: `sub-mode-${rea}` });
const other = testClient('mode-other', [rea], { apimSubscriptionId: `sub-mode-other-${rea}` });

/** The environment of the shared stack's runner, with `changes` applied (undefined removes a setting). */
function environment(changes: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...storageSettings(),
    REFERENCE_CACHE_SECONDS: '0',
  };
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

function start(changes: Record<string, string | undefined>): Promise<RunnerProcess> {
  return startHttpOnlyRunner({ projectRoot: ROOT, env: environment(changes), quiet: true });
}

/** The headers App Service authentication sets on a request it admitted with an Entra ID token of `principal`. */
const admittedAs = (principal: string) => ({
  'X-MS-CLIENT-PRINCIPAL-ID': principal,
  'X-MS-CLIENT-PRINCIPAL-IDP': 'aad',
});

/** What API Management forwards: the SID key and the subscription it checked the API key against, no API key. */
const fromGateway = (keys: Keys, subscription: string | undefined) => ({
  'Ocp-Apim-Sid-Key': keys.sidKey,
  'X-Apim-Subscription-Id': subscription ?? '',
});

function expectRefused(reply: Reply, code: string): void {
  expect(reply.status).toBe(401);
  checkProblemShape(reply.json, 401);
  expect(reply.json.errors.map((e: { code: string }) => e.code)).toEqual([code]);
}

beforeAll(async () => {
  await seed(dataset({ clients: [client, other], farms: [testFarm(rea)] }));
});

describe('AUTH_MODE has no default', () => {
  it('stops the app from starting when it is not set, naming it', async () => {
    await expect(start({ AUTH_MODE: undefined })).rejects.toThrow(/AUTH_MODE is not set/);
  });

  it('stops the app from starting in apim mode without the identity of API Management, naming it', async () => {
    await expect(start({ AUTH_MODE: 'apim', APIM_PRINCIPAL_ID: undefined })).rejects.toThrow(
      /APIM_PRINCIPAL_ID: AUTH_MODE is 'apim'/,
    );
  });
});

describe('apim mode: API Management is believed only on requests admitted as API Management', () => {
  let gateway: RunnerProcess;
  const send = (headers: Record<string, string>) => call('GET', FARM, { base: gateway.url, headers });

  beforeAll(async () => {
    gateway = await start({ AUTH_MODE: 'apim', APIM_PRINCIPAL_ID: APIM });
  });
  afterAll(async () => {
    await gateway.stop();
  });

  it('answers the client API Management forwards, with no API key (API Management checked it)', async () => {
    const reply = await send({ ...fromGateway(client, client.apimSubscriptionId), ...admittedAs(APIM) });
    expect(reply.status).toBe(200);
    expect(reply.json[0].id).toMatch(/^urn:ngsi-ld:AgriFarm:/);
  });

  it('refuses a forged subscription header on a call the platform did not authenticate at all', async () => {
    const reply = await send(fromGateway(client, client.apimSubscriptionId));
    expectRefused(reply, 'INVALID_CREDENTIALS');
    expect(reply.json.detail).toBe('The request did not come through the gateway.');
  });

  it('refuses it on a call authenticated as another identity, or by another provider', async () => {
    const someoneElse = '0b1c2d3e-4f50-4617-8829-3a4b5c6d7e8f';
    expectRefused(
      await send({ ...fromGateway(client, client.apimSubscriptionId), ...admittedAs(someoneElse) }),
      'INVALID_CREDENTIALS',
    );
    expectRefused(
      await send({
        ...fromGateway(client, client.apimSubscriptionId),
        ...admittedAs(APIM),
        'X-MS-CLIENT-PRINCIPAL-IDP': 'github',
      }),
      'INVALID_CREDENTIALS',
    );
  });

  it("still refuses a client's SID key with another client's subscription, even from API Management", async () => {
    expectRefused(
      await send({ ...fromGateway(client, other.apimSubscriptionId), ...admittedAs(APIM) }),
      'INVALID_CREDENTIALS',
    );
  });
});

describe('local mode (the shared stack)', () => {
  it('never takes API Management headers for the API key, whoever they claim to come from', async () => {
    const reply = await call('GET', FARM, {
      headers: { ...fromGateway(client, client.apimSubscriptionId), ...admittedAs(APIM) },
    });
    expectRefused(reply, 'MISSING_CREDENTIALS');
    expect(reply.json.errors[0].path).toBe('header.Ocp-Apim-Subscription-Key');
    expect((await call('GET', FARM, { keys: client })).status).toBe(200);
  });
});
