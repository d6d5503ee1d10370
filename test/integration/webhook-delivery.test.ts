import http from 'node:http';
import { AddressInfo } from 'node:net';
import { DateTime } from 'luxon';
import { ExportKinds } from '../../shared/export/export-kinds';
import { MailError } from '../../shared/email/mailer';
import { Client, ClientStore } from '../../shared/clients/client-store';
import { accessibleFarm } from '../../shared/farms/farm-service';
import { FarmIndex } from '../../shared/farms/farm-index';
import { MailPort, WebhookOutbox } from '../../shared/export/notifications';
import { runExportJob, WorkerDeps } from '../../shared/export/worker';
import { sweepExportJobs } from '../../shared/export/sweeper';
import { LEASE_MS } from '../../shared/export/job-lease';
import { SiexPort } from '../../shared/export/siex-port';
import { createLogger } from '../../shared/log/logger';
import { GIVE_UP_AFTER_MS } from '../../shared/notify/webhook-event';
import { createWebhookSender, SenderOptions } from '../../shared/notify/webhook-sender';
import { TableSlots } from '../../shared/notify/slot-store';
import {
  DEFERRED_MS,
  deliverWebhook,
  DeliveryDeps,
  DeliveryStep,
  recipientsAmong,
  WebhookMessage,
} from '../../shared/notify/webhook-delivery';
import { SubscriptionStore } from '../../shared/notify/subscription-store';
import { webhookSecret } from '../../shared/notify/webhook-secret';
import { verifySignature } from '../../shared/notify/webhook-signature';
import { Clock } from '../../shared/time/clock';
import { tratamFitoBlocks } from './iuws-fixtures';
import { webhookReceiverControl } from '../../local/webhook-receiver/control';
import {
  LOCAL_WEBHOOK_SIGNING_KEY,
  RunningWebhookReceiver,
  startWebhookReceiver,
} from '../../local/webhook-receiver/server';
import { CAMPAIGN } from '../helpers/dataset';
import { sendableFarm, SIEX_FIELDS } from '../helpers/export-stack';
import {
  body,
  inProcessExport,
  inProcessRegister,
  inProcessWorker,
  inProcessServices,
  seedPhyto,
  testClient,
  uniqueRea,
} from '../helpers/phyto-stack';

/**
 * Issues 26 item 6 and 36 item 2 on the real Azurite, with receivers speaking real HTTP: a settled job's event is
 * handed to the delivery queue, one message per client of the farm, and POSTed to each client's webhook, signed with
 * its own secret; a receiver that fails is tried again with backoff (the message put back hidden; the worker and the
 * deliveries run at instants the test sets: an injected clock, no sleeps), the job and its e-mail untouched; a slow
 * one is a failed try; one that fails for a day is given up; one that never answers delays no other client's export
 * or delivery. The delivery queue is the test's (the shared stack's runner reads the real one).
 */
jest.setTimeout(120_000);

const svc = inProcessServices(0, 'webhooks');
let receiver: RunningWebhookReceiver;
let kinds: ExportKinds;
const control = () => webhookReceiverControl(receiver.url);

/** Time the test moves: sleeps (SIEX's polling) end at once, heartbeats never come in so short a run. */
function testClock(start = Date.now()) {
  let t = start;
  const clock: Clock = { now: () => t, sleep: async () => undefined, every: () => () => undefined };
  return { clock, at: (ms: number) => (t = start + ms) };
}

/** SIEX accepting every record it is sent. */
function acceptingSiex(): SiexPort {
  const sent = new Map<string, number[]>();
  return {
    async ready() {},
    async submit(document) {
      const id = `REQ-${sent.size + 1}`;
      sent.set(
        id,
        tratamFitoBlocks(document).map((b) => b.IdAjenaTratamFito),
      );
      return id;
    },
    async status(requestId) {
      const ids = sent.get(requestId) ?? [];
      return {
        state: 'done',
        results: ids.map((externalId) => ({ externalId, section: 'TratamFito', ok: true, errors: [] })),
      };
    },
  };
}

interface Farm {
  me: Client;
  farm: FarmIndex;
  agrifarmId: string;
  /** The other clients the farm is listed under, each with the receiver's hook for it. */
  sharers: Client[];
  record(): Promise<number>;
}

/**
 * A client with a farm of its own and a webhook: the receiver's hook for it unless `webhook` says otherwise; the farm
 * listed under a client of each label of `sharedWith` too.
 */
async function farmWithWebhook(label: string, webhook?: string, sharedWith: string[] = []): Promise<Farm> {
  const rea = uniqueRea();
  const base = testClient(label, [rea]);
  const client = { ...base, webhook: webhook ?? receiver.hookUrl(base.id) };
  const others = sharedWith.map((l) => testClient(l, [rea])).map((c) => ({ ...c, webhook: receiver.hookUrl(c.id) }));
  await seedPhyto({ farms: [sendableFarm(rea)], clients: [client, ...others] });
  const sharers = await Promise.all(others.map(async (c) => (await svc.gate.findClient(c.sidKey))!));
  const me = (await svc.gate.findClient(client.sidKey))!;
  const info = (await svc.farms.lookupInfo(rea, CAMPAIGN))!;
  const agrifarmId = `urn:ngsi-ld:AgriFarm:${info.farmId}`;
  const farm = await accessibleFarm(svc.farms, me, agrifarmId);
  const register = inProcessRegister(svc, () => DateTime.now());
  const vine = farm.doc.idcps.filter((e) => farm.cropOf(e).typecropId === '102').map((e) => String(e.idcp));
  let n = 0;
  return {
    me,
    farm,
    agrifarmId,
    sharers,
    async record() {
      const keys = { sidKey: client.sidKey, apiKey: client.apiKey };
      const res = await register(
        keys,
        agrifarmId,
        JSON.stringify(body({ idcp: [vine[n++ % vine.length]], ...SIEX_FIELDS })),
      );
      if (res.status !== 201) throw new Error(res.text);
      return Number(String(res.json[0].id).split(':').pop());
    },
  };
}

/** The delivery queue as the test keeps it: each message with the delay it was put back with. */
function testQueue() {
  const messages: [WebhookMessage, number][] = [];
  return {
    messages,
    send: async (m: WebhookMessage, delayMs = 0) => void messages.push([m, delayMs]),
    /** Takes the oldest message (the queue's next one), whatever its delay. */
    take: () => messages.shift()![0],
  };
}

function outbox(queue: ReturnType<typeof testQueue>, clock: Clock): WebhookOutbox {
  const clients = new ClientStore(svc.tables);
  const subscriptions = new SubscriptionStore(svc.tables);
  return {
    // As the app composes it (shared/app/services.ts): the farm's clients, each at its own webhook or its operator's.
    recipients: async (rea) =>
      recipientsAmong(await clients.clientsOfFarm(rea, () => DateTime.fromMillis(clock.now())), subscriptions),
    send: (m) => queue.send(m),
  };
}

function deps(clock: Clock, mails: string[], queue: ReturnType<typeof testQueue>, logged: string[] = []): WorkerDeps {
  const mailer: MailPort = { send: async (_m, operationId) => void mails.push(operationId) };
  return inProcessWorker(svc, kinds, {
    siex: acceptingSiex(),
    mailer,
    webhooks: outbox(queue, clock),
    clock,
    log: createLogger((_level, line) => void logged.push(line)),
  });
}

/** The delivery function's parts: http to this machine allowed, as with AUTH_MODE=local. */
function deliveryDeps(
  clock: Clock,
  queue: ReturnType<typeof testQueue>,
  logged: string[],
  sender: SenderOptions = {},
): DeliveryDeps {
  return {
    sender: createWebhookSender(LOCAL_WEBHOOK_SIGNING_KEY, { allowLoopbackHttp: true, ...sender }),
    queue,
    // The slots every instance shares, in the test's Azurite: each test's clients are its own.
    slots: new TableSlots(svc.tables, () => clock.now()),
    now: () => clock.now(),
    log: createLogger((_level, line) => void logged.push(line)),
  };
}

/** The webhook.sent events of a job, as [outcome, attempts]. */
function webhookEvents(logged: string[], jobId: number): [string, number][] {
  return logged
    .map((line) => JSON.parse(line) as { event: string; jobId: number; outcome: string; attempts: number })
    .filter((e) => e.event === 'webhook.sent' && e.jobId === jobId)
    .map((e) => [e.outcome, e.attempts]);
}

beforeAll(async () => {
  kinds = await svc.exportKinds();
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.stop());
beforeEach(() => control().reset());

it('a failing receiver is tried again later, with backoff, until it takes the event; every try signed and the same', async () => {
  const f = await farmWithWebhook('webhook-retry');
  const jobId = await inProcessExport(svc, f.me, f.farm, f.agrifarmId, [await f.record()]);
  const { clock, at } = testClock();
  const mails: string[] = [];
  const logged: string[] = [];
  const queue = testQueue();
  const d = deps(clock, mails, queue, logged);
  const dd = deliveryDeps(clock, queue, logged);
  const start = clock.now();
  await control().failNext(2);

  await runExportJob(d, jobId);
  expect((await svc.jobs.meta(jobId))!.status).toBe('FinalizadoCompleto');
  // Handed over: the worker has nothing left to do for it, and its watch row is gone.
  expect(await svc.watch.read(jobId)).toBeNull();
  expect(queue.messages.map(([m, delay]) => [m.clientId, m.delivery.id, delay])).toEqual([
    [f.me.id, `evt_job_${jobId}_outcome`, 0],
  ]);
  expect(await deliverWebhook(dd, queue.take())).toBe('pending');
  expect(queue.messages.map(([m, delay]) => [m.delivery.attempts, delay])).toEqual([[1, 30_000]]);
  at(30_001);
  expect(await deliverWebhook(dd, queue.take())).toBe('pending');
  expect(queue.messages.map(([m, delay]) => [m.delivery.attempts, delay])).toEqual([[2, 60_000]]);
  at(90_002);
  expect(await deliverWebhook(dd, queue.take())).toBe('delivered');
  expect(queue.messages).toEqual([]);
  // Delivered: nothing more is sent, whatever comes.
  await runExportJob(d, jobId);
  expect(queue.messages).toEqual([]);

  const tries = (await control().deliveries()).filter((x) => x.clientId === f.me.id);
  expect(tries.map((x) => x.status)).toEqual([503, 503, 204]);
  expect(new Set(tries.map((x) => x.eventId))).toEqual(new Set([`evt_job_${jobId}_outcome`]));
  expect(new Set(tries.map((x) => JSON.stringify(x.body))).size).toBe(1);
  expect(tries[0].body).toEqual({
    id: `evt_job_${jobId}_outcome`,
    type: 'job.finished',
    created: new Date(start).toISOString(),
    data: { jobId, agrifarmId: f.agrifarmId, status: 'FinalizadoCompleto', ok: 1, errors: 0 },
  });
  // Each try is signed at the time it was made, with the client's secret.
  expect(tries.map((x) => Number(/t=(\d+)/.exec(x.signature)![1]))).toEqual(
    [0, 30_001, 90_002].map((ms) => Math.floor((start + ms) / 1000)),
  );
  expect(tries.every((x) => x.verified)).toBe(true);
  const secret = webhookSecret(LOCAL_WEBHOOK_SIGNING_KEY, f.me.id);
  const sent = JSON.stringify(tries[2].body);
  expect(verifySignature(secret, tries[2].signature, sent, start + 90_002)).toBe(true);
  expect(
    verifySignature(webhookSecret(LOCAL_WEBHOOK_SIGNING_KEY, 'someone-else'), tries[2].signature, sent, start + 90_002),
  ).toBe(false);

  const meta = (await svc.jobs.meta(jobId))!;
  expect([meta.status, meta.webhooks.map((w) => [w.id, w.queued])]).toEqual([
    'FinalizadoCompleto',
    [[`evt_job_${jobId}_outcome`, true]],
  ]);
  expect(mails).toHaveLength(1);
  expect(webhookEvents(logged, jobId)).toEqual([
    ['failed', 1],
    ['failed', 2],
    ['delivered', 3],
  ]);
});

it('an event the worker could not hand to the delivery queue is handed over when the sweeper brings the job back', async () => {
  const f = await farmWithWebhook('webhook-handover');
  const jobId = await inProcessExport(svc, f.me, f.farm, f.agrifarmId, [await f.record()]);
  const { clock, at } = testClock();
  const mails: string[] = [];
  const queue = testQueue();
  const d = deps(clock, mails, queue);
  const send = d.webhooks!.send;
  d.webhooks = { ...d.webhooks!, send: () => Promise.reject(new Error('the queue is out of reach')) };

  await expect(runExportJob(d, jobId)).rejects.toThrow('the queue is out of reach');
  let meta = (await svc.jobs.meta(jobId))!;
  // Settled and told by e-mail; the event written, not handed over, and the job still watched.
  expect([meta.status, meta.webhooks.map((w) => [w.id, w.queued]), mails.length]).toEqual([
    'FinalizadoCompleto',
    [[`evt_job_${jobId}_outcome`, false]],
    1,
  ]);
  expect(await svc.watch.read(jobId)).not.toBeNull();

  d.webhooks = { ...d.webhooks, send };
  at(LEASE_MS + 1);
  const queued: number[] = [];
  await sweepExportJobs({
    watch: svc.watch,
    jobs: svc.jobs,
    enqueue: async (m) => void queued.push(m.jobId),
    now: () => clock.now(),
  });
  expect(queued).toEqual([jobId]);
  await runExportJob(d, jobId);
  meta = (await svc.jobs.meta(jobId))!;
  expect(queue.messages.map(([m]) => [m.clientId, m.delivery.id])).toEqual([[f.me.id, `evt_job_${jobId}_outcome`]]);
  expect([meta.webhooks.map((w) => w.queued), mails.length]).toEqual([[true], 1]);
  expect(await svc.watch.read(jobId)).toBeNull();
});

it('the event is written before the e-mail goes: a failed e-mail leaves it on the job, handed over with the next try', async () => {
  const f = await farmWithWebhook('webhook-before-mail');
  const jobId = await inProcessExport(svc, f.me, f.farm, f.agrifarmId, [await f.record()]);
  const { clock } = testClock();
  const mails: string[] = [];
  const queue = testQueue();
  const d = deps(clock, mails, queue);
  const mailer = d.mailer;
  d.mailer = { send: () => Promise.reject(new MailError('the mail service is down', { retryable: true })) };

  await expect(runExportJob(d, jobId)).rejects.toThrow('the mail service is down');
  let meta = (await svc.jobs.meta(jobId))!;
  expect([meta.emailSent, meta.webhooks.map((w) => [w.id, w.queued]), queue.messages]).toEqual([
    false,
    [[`evt_job_${jobId}_outcome`, false]],
    [],
  ]);

  // The queue's next delivery of the job's message.
  d.mailer = mailer;
  await runExportJob(d, jobId);
  meta = (await svc.jobs.meta(jobId))!;
  expect([meta.emailSent, meta.webhooks.map((w) => w.queued), mails.length]).toEqual([true, [true], 1]);
  expect(queue.messages.map(([m]) => m.delivery.id)).toEqual([`evt_job_${jobId}_outcome`]);
});

it('a receiver slower than the time-out is a failed try; one failing for a day is given up, the job untouched', async () => {
  const f = await farmWithWebhook('webhook-give-up');
  const jobId = await inProcessExport(svc, f.me, f.farm, f.agrifarmId, [await f.record()]);
  const { clock, at } = testClock();
  const start = clock.now();
  const logged: string[] = [];
  const queue = testQueue();
  const dd = deliveryDeps(clock, queue, logged, { timeoutMs: 200 });
  await control().delay(1_000);
  await runExportJob(deps(clock, [], queue, logged), jobId);
  expect(await deliverWebhook(dd, queue.take())).toBe('pending');
  expect(queue.messages[0][0].delivery.lastError).toBe('not delivered: TimeoutError');

  await control().delay(0);
  await control().failNext(1_000);
  let tries = 1;
  for (let guard = 0; guard < 100 && queue.messages.length > 0; guard++) {
    at(queue.messages[0][0].delivery.due - start + 1);
    await deliverWebhook(dd, queue.take());
    tries++;
  }
  const meta = (await svc.jobs.meta(jobId))!;
  expect(meta.status).toBe('FinalizadoCompleto');
  // Tried for at least a day, never more often than every 30 s, at most hourly at the end.
  expect(clock.now() - start).toBeGreaterThanOrEqual(GIVE_UP_AFTER_MS);
  expect(tries).toBeLessThan(40);
  expect(webhookEvents(logged, jobId).at(-1)).toEqual(['abandoned', tries]);
});

it("a farm under two clients: each hears of the other's export, signed with its own secret", async () => {
  const f = await farmWithWebhook('webhook-share-a', undefined, ['webhook-share-b']);
  const [starter, sharer] = [f.me, f.sharers[0]];
  // A client of another farm, with a webhook too, hears nothing of this one.
  await farmWithWebhook('webhook-share-c');
  const agrifarmId = f.agrifarmId;
  const jobId = await inProcessExport(svc, f.me, f.farm, agrifarmId, [await f.record()]);
  const { clock } = testClock();
  const queue = testQueue();
  const logged: string[] = [];
  await runExportJob(deps(clock, [], queue, logged), jobId);
  expect(queue.messages.map(([m]) => m.clientId)).toEqual([starter.id, sharer.id]);
  const dd = deliveryDeps(clock, queue, logged);
  while (queue.messages.length > 0) expect(await deliverWebhook(dd, queue.take())).toBe('delivered');

  const got = (await control().deliveries()).filter((x) => x.eventId === `evt_job_${jobId}_outcome`);
  expect(got.map((x) => [x.clientId, x.status, x.verified])).toEqual([
    [starter.id, 204, true],
    [sharer.id, 204, true],
  ]);
  const [a, b] = got;
  const text = JSON.stringify(a.body);
  expect(JSON.stringify(b.body)).toBe(text);
  // The sharer did not start the job, and cannot read it: the event names the farm, whose records it can read.
  expect((a.body as { data: unknown }).data).toEqual({
    jobId,
    agrifarmId,
    status: 'FinalizadoCompleto',
    ok: 1,
    errors: 0,
  });
  // Each signed with its own client's secret, which the other's does not verify.
  expect(verifySignature(webhookSecret(LOCAL_WEBHOOK_SIGNING_KEY, sharer.id), a.signature, text, clock.now())).toBe(
    false,
  );
  expect(verifySignature(webhookSecret(LOCAL_WEBHOOK_SIGNING_KEY, starter.id), b.signature, text, clock.now())).toBe(
    false,
  );
});

it('a client whose credentials expired hears no more of a shared farm; one whose last day is today still does', async () => {
  const f = await farmWithWebhook('webhook-expiry-a', undefined, ['webhook-expiry-b']);
  const { clock } = testClock();
  const today = DateTime.fromMillis(clock.now()).setZone('Europe/Madrid');
  const clientUntil = (label: string, day: DateTime) => {
    const c = testClient(label, [f.farm.meta.rea]);
    return { ...c, expires: day.toFormat('dd-MM-yyyy'), webhook: receiver.hookUrl(c.id) };
  };
  const lastDayToday = clientUntil('webhook-expiry-c', today);
  const expired = clientUntil('webhook-expiry-d', today.minus({ days: 1 }));
  await seedPhyto({ farms: [], clients: [lastDayToday, expired] });
  const jobId = await inProcessExport(svc, f.me, f.farm, f.agrifarmId, [await f.record()]);
  const queue = testQueue();
  await runExportJob(deps(clock, [], queue), jobId);
  expect(queue.messages.map(([m]) => m.clientId)).toEqual([f.me.id, f.sharers[0].id, lastDayToday.id]);
});

/** A receiver that takes every request and never answers; `reached` resolves on the n-th request. */
async function hangingReceiver() {
  const waiters: [number, () => void][] = [];
  let requests = 0;
  const server = http.createServer(() => {
    requests++;
    for (const [n, resolve] of waiters) if (requests >= n) resolve();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    reached: (n: number) => new Promise<void>((resolve) => (requests >= n ? resolve() : waiters.push([n, resolve]))),
    stop: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

it("a receiver that never answers delays no other client's export or delivery, and holds no more than its cap", async () => {
  const hanging = await hangingReceiver();
  try {
    // The slow client's webhook is the receiver that never answers.
    const slow = await farmWithWebhook('webhook-hang', hanging.url);
    const other = await farmWithWebhook('webhook-other');
    const { clock } = testClock();
    const queue = testQueue();
    const logged: string[] = [];
    const events: string[] = [];
    // The time-out is the test's: it fires when the test says, after everything else has been seen.
    const timeout = new AbortController();
    const dd = deliveryDeps(clock, queue, logged, { timeout: () => timeout.signal });
    const noted = (label: string) => (step: DeliveryStep) => void events.push(`${label} ${step}`);

    const slowJob = await inProcessExport(svc, slow.me, slow.farm, slow.agrifarmId, [await slow.record()]);
    await runExportJob(deps(clock, [], queue, logged), slowJob);
    const slowMessage = queue.take();
    expect(slowMessage.url).toBe(hanging.url);
    // The slow client's event arrives three times (a queue delivers at least once): two tries hang, the third waits.
    const hung = [1, 2].map(() => deliverWebhook(dd, slowMessage).then(noted('slow')));
    await hanging.reached(2);
    events.push('slow receiver holds 2 tries');
    noted('slow')(await deliverWebhook(dd, slowMessage));
    expect(queue.messages.map(([m, delay]) => [m.clientId, delay])).toEqual([[slow.me.id, DEFERRED_MS]]);
    queue.take();

    const otherJob = await inProcessExport(svc, other.me, other.farm, other.agrifarmId, [await other.record()]);
    await runExportJob(deps(clock, [], queue, logged), otherJob);
    events.push(`other export ${(await svc.jobs.meta(otherJob))!.status}`);
    noted('other')(await deliverWebhook(dd, queue.take()));

    timeout.abort(new DOMException('the time-out', 'TimeoutError'));
    await Promise.all(hung);
    expect(events).toEqual([
      'slow receiver holds 2 tries',
      'slow deferred',
      'other export FinalizadoCompleto',
      'other delivered',
      'slow pending',
      'slow pending',
    ]);
    expect((await control().deliveries()).filter((x) => x.clientId === other.me.id).map((x) => x.status)).toEqual([
      204,
    ]);
    // The slow client's tries are put back for later, as any failure.
    expect(queue.messages.map(([m, delay]) => [m.clientId, m.delivery.lastError, delay])).toEqual([
      [slow.me.id, 'not delivered: TimeoutError', 30_000],
      [slow.me.id, 'not delivered: TimeoutError', 30_000],
    ]);
  } finally {
    await hanging.stop();
  }
});

it("a client's slots are shared by every instance, freed after each try, and taken over from a holder that died", async () => {
  const { clock, at } = testClock();
  const clientId = testClient('webhook-slots', []).id;
  const one = new TableSlots(svc.tables, () => clock.now());
  const two = new TableSlots(svc.tables, () => clock.now());
  const first = (await one.take(clientId))!;
  const second = (await two.take(clientId))!;
  expect([typeof first, typeof second]).toEqual(['function', 'function']);
  expect([await one.take(clientId), await two.take(clientId)]).toEqual([null, null]);
  // Another client is not held by this one's slots.
  const other = (await two.take(`${clientId}-other`))!;
  await other();
  await first();
  const third = (await two.take(clientId))!;
  expect(await one.take(clientId)).toBeNull();
  // The holders of `second` and `third` die mid-try: once their time is past, their slots are taken over.
  at(29_999);
  expect(await one.take(clientId)).toBeNull();
  at(30_001);
  const takenOver = [(await one.take(clientId))!, (await one.take(clientId))!];
  expect(await two.take(clientId)).toBeNull();
  // A late holder's release frees nothing of the new holders'.
  await second();
  await third();
  expect(await two.take(clientId)).toBeNull();
  await Promise.all(takenOver.map((free) => free()));
  expect(typeof (await two.take(clientId))).toBe('function');
});
