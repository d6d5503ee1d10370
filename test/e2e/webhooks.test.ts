import { webhookReceiverControl } from '../../local/webhook-receiver/control';
import {
  LOCAL_WEBHOOK_SIGNING_KEY,
  RunningWebhookReceiver,
  startWebhookReceiver,
} from '../../local/webhook-receiver/server';
import { webhookSecret } from '../../shared/notify/webhook-secret';
import { eventually, ExportFarm, exportFarm, gatewayCalls, problemOf, registerRecords } from '../helpers/export-stack';
import { call, get, Keys, postJson, Reply } from '../helpers/http';

/**
 * Issue 38 item 5 over HTTP on the shared stack: a client sets its own webhook, tries it with a signed ping, rotates
 * its secret with an overlap (both secrets sign meanwhile), and reads its deliveries, a settled export's event among
 * them. The receiver is a real HTTP server of the test's own, on this machine (AUTH_MODE=local lets http reach it).
 */
jest.setTimeout(120_000);

let receiver: RunningWebhookReceiver;
let farm: ExportFarm;
const control = () => webhookReceiverControl(receiver.url);
const gw = gatewayCalls();

const put = (keys: Keys, body: unknown): Promise<Reply> =>
  call('PUT', '/v1/webhooks', { keys, body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
const ping = (keys: Keys) => postJson('/v1/webhooks/test', undefined, keys);
const rotate = (keys: Keys, overlapHours?: number) =>
  postJson('/v1/webhooks/rotate', overlapHours === undefined ? {} : { overlapHours }, keys);
const secret = (generation: number) => webhookSecret(LOCAL_WEBHOOK_SIGNING_KEY, farm.client.id, generation);
/** The secrets that signed the receiver's delivery of an event. */
const signers = async (eventId: string) =>
  (await control().deliveries()).filter((d) => d.eventId === eventId).map((d) => d.verifiedWith);

beforeAll(async () => {
  receiver = await startWebhookReceiver({ port: 0 });
  farm = await exportFarm('webhooks');
});

afterAll(async () => {
  await receiver.stop();
});

describe('a client looks after its own webhook', () => {
  it('has none until it sets one: reading, pinging and rotating say so', async () => {
    const other = await exportFarm('webhooks-none');
    for (const res of [await get('/v1/webhooks', other.keys), await ping(other.keys), await rotate(other.keys)])
      expect(problemOf(res)).toEqual([404, ['WEBHOOK_NOT_SET']]);
    expect((await get('/v1/webhooks/deliveries', other.keys)).json).toEqual([]);
  });

  it('refuses a URL the gateway may not reach, and a body it does not know, storing nothing', async () => {
    for (const url of ['ftp://erp.example/hooks', 'https://10.0.0.8/hooks', 'http://erp.example/hooks', 'nope'])
      expect(problemOf(await put(farm.keys, { url }))).toEqual([400, ['INVALID_VALUE']]);
    expect(problemOf(await put(farm.keys, { url: receiver.hookUrl('x'), events: [] }))).toEqual([
      400,
      ['INVALID_VALUE'],
    ]);
    expect(problemOf(await put(farm.keys, { url: receiver.hookUrl('x'), secret: 'mine' }))).toEqual([
      400,
      ['UNKNOWN_FIELD'],
    ]);
    expect(problemOf(await get('/v1/webhooks', farm.keys))).toEqual([404, ['WEBHOOK_NOT_SET']]);
  });

  it('sets it, is shown its secret once, pings it, rotates with an overlap and then without, and reads every try', async () => {
    const url = receiver.hookUrl(farm.client.id);
    const first = await put(farm.keys, { url });
    expect([first.status, first.json]).toEqual([
      200,
      {
        url,
        events: ['job.finished', 'job.reconciled'],
        source: 'client',
        secretGeneration: 0,
        previousSecretValidUntil: null,
        updated: expect.any(String),
        secret: secret(0),
      },
    ]);
    const again = await put(farm.keys, { url, events: ['job.finished', 'job.reconciled'] });
    expect([again.status, again.json.secret]).toEqual([200, undefined]);
    expect((await get('/v1/webhooks', farm.keys)).json).toEqual({
      ...first.json,
      secret: undefined,
      updated: again.json.updated,
    });

    const ok = await ping(farm.keys);
    expect([ok.status, ok.json]).toEqual([
      200,
      { eventId: expect.stringMatching(/^evt_ping_/), outcome: 'delivered', detail: 'answered 2xx' },
    ]);
    expect(await signers(ok.json.eventId)).toEqual([[0]]);

    const rotated = await rotate(farm.keys, 2);
    expect(rotated.status).toBe(200);
    expect(rotated.json).toMatchObject({
      secretGeneration: 1,
      secret: secret(1),
      previousSecretValidUntil: expect.any(String),
    });
    const overlap = await ping(farm.keys);
    expect(await signers(overlap.json.eventId)).toEqual([[0, 1]]);

    // The old secret leaked: a rotation with no overlap stops it at once.
    const urgent = await rotate(farm.keys, 0);
    expect(urgent.json).toMatchObject({ secretGeneration: 2, secret: secret(2), previousSecretValidUntil: null });
    const after = await ping(farm.keys);
    expect(await signers(after.json.eventId)).toEqual([[2]]);

    await control().failNext(1);
    const failed = await ping(farm.keys);
    expect(failed.json).toMatchObject({ outcome: 'failed', detail: 'answered HTTP 503' });

    const deliveries = await get('/v1/webhooks/deliveries?limit=3', farm.keys);
    expect(deliveries.status).toBe(200);
    expect(deliveries.json.map((d: { eventId: string; state: string }) => [d.eventId, d.state])).toEqual([
      [failed.json.eventId, 'abandoned'],
      [after.json.eventId, 'delivered'],
      [overlap.json.eventId, 'delivered'],
    ]);
    expect(deliveries.json[0]).toMatchObject({
      type: 'webhook.ping',
      jobId: null,
      url,
      attempts: 1,
      lastError: 'answered HTTP 503',
    });
    expect(problemOf(await get('/v1/webhooks/deliveries?limit=101', farm.keys))).toEqual([400, ['INVALID_VALUE']]);
  });

  it('hears a settled export of its farm at the webhook it set, signed with its current secret, and lists it', async () => {
    const [urn] = await registerRecords(farm, 1);
    const started = await gw.exportCue(farm, [urn]);
    expect(started.status).toBe(202);
    await gw.settled(farm.keys, started.json.id);
    const eventId = `evt_job_${started.json.id}_outcome`;
    const got = await eventually('the job event at the receiver', async () => {
      const d = (await control().deliveries()).find((x) => x.eventId === eventId);
      return d ?? undefined;
    });
    expect([got.clientId, got.verifiedWith, got.status]).toEqual([farm.client.id, [2], 204]);
    const listed = await eventually('the job event among the deliveries', async () => {
      const all = (await get('/v1/webhooks/deliveries', farm.keys)).json as { eventId: string }[];
      return all.find((d) => d.eventId === eventId);
    });
    expect(listed).toMatchObject({ type: 'job.finished', jobId: started.json.id, state: 'delivered', attempts: 1 });
  });
});
