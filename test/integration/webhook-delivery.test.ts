import { DateTime } from 'luxon';
import { ExportKinds } from '../../shared/export/export-kinds';
import { Client } from '../../shared/clients/client-store';
import { accessibleFarm } from '../../shared/farms/farm-service';
import { FarmIndex } from '../../shared/farms/farm-index';
import { sweepExportJobs } from '../../shared/export/sweeper';
import { MailPort } from '../../shared/export/notifications';
import { runExportJob, SiexPort, WorkerDeps } from '../../shared/export/worker';
import { createLogger } from '../../shared/log/logger';
import { GIVE_UP_AFTER_MS } from '../../shared/notify/webhook-event';
import { createWebhookSender } from '../../shared/notify/webhook-sender';
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
 * Issue 26 item 6 on the real Azurite, with a receiver speaking real HTTP: a settled job's event is POSTed to the
 * client's webhook, signed; a receiver that fails is tried again by the job's watch row with backoff (the sweeper and
 * the worker run at instants the test sets: an injected clock, no sleeps), the job and its e-mail untouched; a slow
 * one is a failed try; one that fails for a day is given up.
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
  record(): Promise<number>;
}

async function farmWithWebhook(label: string): Promise<Farm> {
  const rea = uniqueRea();
  const base = testClient(label, [rea]);
  const client = { ...base, webhook: receiver.hookUrl(base.id) };
  await seedPhyto({ farms: [sendableFarm(rea)], clients: [client] });
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

function deps(clock: Clock, mails: string[], timeoutMs?: number, logged: string[] = []): WorkerDeps {
  const mailer: MailPort = { send: async (_m, operationId) => void mails.push(operationId) };
  return inProcessWorker(svc, kinds, {
    siex: acceptingSiex(),
    mailer,
    webhooks: createWebhookSender(LOCAL_WEBHOOK_SIGNING_KEY, timeoutMs),
    clock,
    log: createLogger((_level, line) => void logged.push(line)),
  });
}

/** The webhook.sent events of a job, as [outcome, attempts]. */
function webhookEvents(logged: string[], jobId: number): [string, number][] {
  return logged
    .map((line) => JSON.parse(line) as { event: string; jobId: number; outcome: string; attempts: number })
    .filter((e) => e.event === 'webhook.sent' && e.jobId === jobId)
    .map((e) => [e.outcome, e.attempts]);
}

/** One sweep at the clock's time, and a delivery of each job it queued: what the timer and the queue would do. */
async function sweepAndRun(d: WorkerDeps, clock: Clock): Promise<number[]> {
  const queued: number[] = [];
  await sweepExportJobs({
    watch: svc.watch,
    jobs: svc.jobs,
    enqueue: async (m) => void queued.push(m.jobId),
    now: () => clock.now(),
  });
  for (const jobId of queued) await runExportJob(d, jobId);
  return queued;
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
  const d = deps(clock, mails, undefined, logged);
  const start = clock.now();
  await control().failNext(2);

  await runExportJob(d, jobId);
  expect((await svc.jobs.meta(jobId))!.status).toBe('FinalizadoCompleto');
  expect((await svc.watch.read(jobId))!.due).toBe(start + 30_000);
  // Not yet due: the sweeper leaves it (it takes rows whose time is past).
  at(30_000);
  expect(await sweepAndRun(d, clock)).toEqual([]);
  at(30_001);
  expect(await sweepAndRun(d, clock)).toEqual([jobId]);
  expect((await svc.watch.read(jobId))!.due).toBe(start + 30_001 + 60_000);
  at(90_002);
  expect(await sweepAndRun(d, clock)).toEqual([jobId]);
  expect(await svc.watch.read(jobId)).toBeNull();
  // Delivered: nothing more is sent, whatever comes.
  await runExportJob(d, jobId);

  const tries = (await control().deliveries()).filter((x) => x.clientId === f.me.id);
  expect(tries.map((x) => x.status)).toEqual([503, 503, 204]);
  expect(new Set(tries.map((x) => x.eventId))).toEqual(new Set([`evt_job_${jobId}_outcome`]));
  expect(new Set(tries.map((x) => JSON.stringify(x.body))).size).toBe(1);
  expect(tries[0].body).toEqual({
    id: `evt_job_${jobId}_outcome`,
    type: 'job.finished',
    created: new Date(start).toISOString(),
    data: { jobId, status: 'FinalizadoCompleto', ok: 1, errors: 0 },
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
  expect([meta.status, meta.webhooks.map((w) => [w.state, w.attempts])]).toEqual([
    'FinalizadoCompleto',
    [['delivered', 3]],
  ]);
  expect(mails).toHaveLength(1);
  expect(webhookEvents(logged, jobId)).toEqual([
    ['failed', 1],
    ['failed', 2],
    ['delivered', 3],
  ]);
});

it('a receiver slower than the time-out is a failed try; one failing for a day is given up, the job untouched', async () => {
  const f = await farmWithWebhook('webhook-give-up');
  const jobId = await inProcessExport(svc, f.me, f.farm, f.agrifarmId, [await f.record()]);
  const { clock, at } = testClock();
  const start = clock.now();
  const logged: string[] = [];
  const d = deps(clock, [], 200, logged);
  await control().delay(1_000);
  await runExportJob(d, jobId);
  let meta = (await svc.jobs.meta(jobId))!;
  expect([meta.webhooks[0].state, meta.webhooks[0].lastError]).toEqual(['pending', 'not delivered: TimeoutError']);

  await control().delay(0);
  await control().failNext(1_000);
  let tries = 1;
  for (let guard = 0; guard < 100; guard++) {
    const due = (await svc.watch.read(jobId))?.due;
    if (due === undefined) break;
    at(due - start + 1);
    await sweepAndRun(d, clock);
    tries++;
  }
  meta = (await svc.jobs.meta(jobId))!;
  const w = meta.webhooks[0];
  expect([meta.status, w.state, w.attempts]).toEqual(['FinalizadoCompleto', 'abandoned', tries]);
  // Tried for at least a day, never more often than every 30 s, at most hourly at the end.
  expect(clock.now() - start).toBeGreaterThanOrEqual(GIVE_UP_AFTER_MS);
  expect(tries).toBeLessThan(40);
  expect(webhookEvents(logged, jobId).at(-1)).toEqual(['abandoned', tries]);
});
