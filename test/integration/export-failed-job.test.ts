'luxon';
import { phytoEntry } from '../../shared/phyto/kind-entry';
import { createLogger } from '../../shared/log/logger';
import { ExportKinds } from '../../shared/export/export-kinds';
import { Services } from '../../shared/app/services';
import { createUseCases, UseCaseParts } from '../../shared/app/use-cases';
import { Client } from '../../shared/clients/client-store';
import { parseSettings } from '../../shared/config/config';
import { DomainError } from '../../shared/domain/errors';
import { jobView, resultOf } from '../../shared/http/job-answers';
import { sweepExportJobs } from '../../shared/export/sweeper';
import { mailOperationId, MailPort } from '../../shared/export/notifications';
import { failExportJob, reconcileDelayMs, runExportJob, WorkerDeps } from '../../shared/export/worker';
import { SiexPort } from '../../shared/export/siex-port';
import { FarmIndex } from '../../shared/farms/farm-index';
import { statusOf } from '../../shared/http/error-status';
import { requestFingerprint } from '../../shared/idempotency/idempotency';
import { createIuwsClient, IuwsError } from '../../shared/siex/iuws-client';
import { tratamFitoBlocks } from './iuws-fixtures';
import { runAdminCli } from '../helpers/admin-cli';
import { asReply, inProcessConnection, inProcessExport, inProcessWorker } from '../helpers/phyto-stack';
import { InProcessFarm, inProcessFarm } from '../helpers/in-process-export';
import { ExportState, isExported } from '../../shared/records/export-state';

/** The job whose outcome is unknown for a record (0: none). */
const unknownJob = (s: ExportState) => (s.kind === 'outcome-unknown' ? s.job : 0);

/**
 * Issue 15, finding 1, on the real Azurite: a job that cannot finish must never make SIEX receive a record twice, and
 * must tell the truth. A batch that may have reached SIEX (SIEX took it and the answer was lost, or it was never
 * answered) is settled OUTCOME_UNKNOWN, never NOT_PROCESSED; such records are refused by a new export until the
 * gateway learns their outcome from SIEX (the deliveries the sweeper queues), or support releases them. Also finding
 * 6: what the job and its e-mail say carries no configuration.
 */

const SCOPE = 'failed-job';
let svc: Services;
let kinds: ExportKinds;
let me: Client;
let farm: FarmIndex;
let agrifarmId: string;
let t: InProcessFarm;

beforeAll(async () => {
  t = await inProcessFarm('export-failed', SCOPE);
  ({ svc, me, farm, agrifarmId } = t);
  kinds = await svc.exportKinds();
});

async function newJob(n: number): Promise<{ jobId: number; ids: number[] }> {
  const ids = await t.registerSendable(n);
  return { jobId: await inProcessExport(svc, me, farm, agrifarmId, ids), ids };
}

/** A new export of these records: the job id, or the codes it was refused with. */
async function exportAgain(ids: number[]): Promise<number | string[]> {
  return inProcessExport(svc, me, farm, agrifarmId, ids).catch((e: unknown) => {
    if (!(e instanceof DomainError)) throw e;
    expect(statusOf(e.violations)).toBe(409);
    return e.violations.map((v) => v.code);
  });
}

interface Mail {
  subject: string;
  text: string;
  operationId: string;
}

function deps(siex: SiexPort): WorkerDeps & { mails: Mail[]; logged: string[] } {
  const mails: Mail[] = [];
  const logged: string[] = [];
  const mailer: MailPort = { send: async (m, operationId) => void mails.push({ ...m, operationId }) };
  return {
    ...inProcessWorker(svc, kinds, {
      siex,
      mailer,
      poll: { firstMs: 1, maxMs: 2, deadlineMs: 20 },
      log: createLogger((_level, line) => void logged.push(line)),
    }),
    mails,
    logged,
  };
}

type Loss = 'crear timed out' | 'crear connection reset' | 'crear never arrived' | 'verdict never came';

/**
 * SIEX as the IUWS contract has it (a crear repeated under its key answers the first request id and submits nothing),
 * losing its answers the way `loss` says until `recover()`.
 */
function siexLosing(loss: Loss) {
  let recovered = false;
  const byKey = new Map<string, { id: string; hash: string }>();
  const results = new Map<string, { externalId: number; section: string; ok: boolean; errors: [] }[]>();
  const received = new Map<number, number>();
  const port: SiexPort = {
    async ready() {},
    async submit(document, key) {
      if (!recovered && loss === 'crear never arrived')
        throw new IuwsError('SIEX POST /crear: cannot reach it (ECONNREFUSED)', {
          code: 'SIEX_UNREACHABLE',
          reachedSiex: false,
        });
      const earlier = byKey.get(key);
      if (earlier && earlier.hash !== requestFingerprint(document))
        throw new IuwsError('crear answered 409', { code: 'SIEX_REJECTED', status: 409 });
      let id = earlier?.id;
      if (!id) {
        id = `REQ-${byKey.size + 1}`;
        byKey.set(key, { id, hash: requestFingerprint(document) });
        const ids = tratamFitoBlocks(document).map((b) => b.IdAjenaTratamFito);
        for (const i of ids) received.set(i, (received.get(i) ?? 0) + 1);
        results.set(
          id,
          ids.map((externalId) => ({ externalId, section: 'TratamFito', ok: true, errors: [] })),
        );
      }
      if (!recovered && loss === 'crear timed out')
        throw new IuwsError('SIEX POST /crear: no answer within 10000 ms', { code: 'SIEX_TIMEOUT' });
      if (!recovered && loss === 'crear connection reset')
        throw new IuwsError('SIEX POST /crear: cannot reach it (ECONNRESET)', { code: 'SIEX_UNREACHABLE' });
      return id;
    },
    async status(requestId) {
      if (!recovered) return { state: 'pending', results: [] };
      return { state: 'done', results: results.get(requestId) ?? [] };
    },
  };
  return { port, received, recover: () => (recovered = true) };
}

/** Every delivery of the queue fails, then the poison handler settles the job. */
async function deliverUntilPoisoned(d: WorkerDeps, jobId: number): Promise<void> {
  for (let delivery = 1; delivery <= 5; delivery++) await expect(runExportJob(d, jobId)).rejects.toThrow();
  await failExportJob(d, jobId);
}

describe.each<Loss>(['crear timed out', 'crear connection reset', 'verdict never came'])(
  'SIEX’s answer lost (%s) at every delivery',
  (loss) => {
    let job: { jobId: number; ids: number[] };
    let siex: ReturnType<typeof siexLosing>;
    let d: ReturnType<typeof deps>;

    it('settles the job Fallido with its records OUTCOME_UNKNOWN, says so in the e-mail, and blocks a new export', async () => {
      job = await newJob(3);
      siex = siexLosing(loss);
      d = deps(siex.port);
      await deliverUntilPoisoned(d, job.jobId);

      const loaded = (await svc.jobs.load(job.jobId))!;
      expect([loaded.meta.status, loaded.meta.reconcile]).toEqual(['Fallido', 'pending']);
      const result = resultOf(loaded);
      expect(result.data).toEqual([]);
      expect(result.error.map((e) => [e.id, e.code])).toEqual(job.ids.map((id) => [id, 'OUTCOME_UNKNOWN']));
      expect(result.error[0].message).toMatch(
        loss === 'verdict never came' ? /sent to SIEX \(request REQ-\d+\)/ : /may have reached SIEX/,
      );
      expect(jobView(loaded.meta).percentage).toBe(100);

      expect(d.mails.map((m) => m.subject)).toEqual([`SIEX export job ${job.jobId}: Fallido`]);
      expect(d.mails[0].text).toContain('Records accepted by SIEX: 0 of 3.');
      expect(d.mails[0].text).toContain('Outcome not known: 3 (OUTCOME_UNKNOWN)');

      expect(await exportAgain(job.ids)).toEqual(job.ids.map(() => 'RECORD_OUTCOME_UNKNOWN'));
      // SIEX received each record once at most, whatever was resent under the batch's key.
      expect(job.ids.map((id) => siex.received.get(id) ?? 0)).toEqual(job.ids.map(() => 1));
    });

    it('learns the outcome from SIEX at the next sweep once SIEX answers: exported, told, nothing sent twice', async () => {
      // The sweeper queues the job at its next tick (its next look was due when it failed).
      const queued: number[] = [];
      await sweepExportJobs({ watch: svc.watch, jobs: svc.jobs, enqueue: async (m) => void queued.push(m.jobId) });
      expect(queued).toContain(job.jobId);

      // SIEX still losing answers: still unknown, asked again later (a minute after this try at the soonest).
      const tried = Date.now();
      await runExportJob(d, job.jobId);
      expect(resultOf((await svc.jobs.load(job.jobId))!).error.map((e) => e.code)).toEqual(
        job.ids.map(() => 'OUTCOME_UNKNOWN'),
      );
      expect((await svc.watch.read(job.jobId))!.due).toBeGreaterThanOrEqual(tried + reconcileDelayMs(0));

      siex.recover();
      await runExportJob(d, job.jobId);
      const loaded = (await svc.jobs.load(job.jobId))!;
      expect([loaded.meta.status, loaded.meta.reconcile, loaded.meta.accepted]).toEqual(['Fallido', 'told', 3]);
      expect(resultOf(loaded)).toEqual({
        data: job.ids.map((id) => ({ result: 'ok', id, urn: `urn:ngsi-ld:AgriPhytosanitary:${id}` })),
        error: [],
      });
      expect(job.ids.map((id) => siex.received.get(id))).toEqual(job.ids.map(() => 1));
      const pointers = await svc.kinds.of(phytoEntry).store.readPointers(farm.meta, job.ids);
      expect(
        job.ids.map((id) => [isExported(pointers.get(id)!.exportState), unknownJob(pointers.get(id)!.exportState)]),
      ).toEqual(job.ids.map(() => [true, 0]));
      expect(d.mails.map((m) => [m.subject, m.operationId])).toEqual([
        [`SIEX export job ${job.jobId}: Fallido`, mailOperationId(job.jobId)],
        [`SIEX export job ${job.jobId}: every outcome is known now`, mailOperationId(job.jobId, 'reconciled')],
      ]);
      expect(await exportAgain(job.ids)).toEqual(job.ids.map(() => 'RECORD_ALREADY_EXPORTED'));
      expect(await svc.watch.read(job.jobId)).toBeNull();
    });
  },
);

it('a crear that certainly never arrived (connection refused at every try) is NOT_PROCESSED and free to export again', async () => {
  const job = await newJob(2);
  const siex = siexLosing('crear never arrived');
  const d = deps(siex.port);
  await deliverUntilPoisoned(d, job.jobId);
  const loaded = (await svc.jobs.load(job.jobId))!;
  expect([loaded.meta.status, loaded.meta.reconcile]).toEqual(['Fallido', 'none']);
  expect(resultOf(loaded).error.map((e) => e.code)).toEqual(['NOT_PROCESSED', 'NOT_PROCESSED']);
  expect(job.ids.map((id) => siex.received.get(id) ?? 0)).toEqual([0, 0]);
  expect(await svc.watch.read(job.jobId)).toBeNull();
  expect(typeof (await exportAgain(job.ids))).toBe('number');
});

it('SIEX that cannot be used (credentials refused) fails the job at once; nothing was sent, so nothing is blocked', async () => {
  const job = await newJob(1);
  const refused = new IuwsError('SIEX refused the credentials of SIEX_USERNAME', { code: 'SIEX_AUTH' });
  let submits = 0;
  const d = deps({
    ready: async () => Promise.reject(refused),
    submit: async () => `REQ-${++submits}`,
    status: async () => ({ state: 'done', results: [] }),
  });
  await runExportJob(d, job.jobId);
  const loaded = (await svc.jobs.load(job.jobId))!;
  expect([loaded.meta.status, loaded.meta.error?.code, loaded.meta.reconcile]).toEqual([
    'Fallido',
    'SIEX_AUTH',
    'none',
  ]);
  expect(resultOf(loaded).error.map((e) => e.code)).toEqual(['NOT_PROCESSED']);
  expect(submits).toBe(0);
  expect(d.mails.map((m) => m.subject)).toEqual([`SIEX export job ${job.jobId}: Fallido`]);
  expect(typeof (await exportAgain(job.ids))).toBe('number');
});

it('an unresolved Key Vault reference reaches the log only: not jobstatus, jobresult or the e-mail', async () => {
  const job = await newJob(1);
  const reference = '@Microsoft.KeyVault(VaultName=kv-siex-prod-7f3a;SecretName=siex-username)';
  const settings = parseSettings({
    AzureWebJobsStorage: inProcessConnection(SCOPE),
    SIEX_BASE_URL: 'https://siex.internal.example:8443/iuws',
    SIEX_USERNAME: reference,
    SIEX_PASSWORD: 'p',
  });
  const d = deps(
    createIuwsClient(
      settings,
      kinds.all().map((k) => k.cue),
    ),
  );
  await runExportJob(d, job.jobId);
  const loaded = (await svc.jobs.load(job.jobId))!;
  const shown = [
    JSON.stringify(jobView(loaded.meta)),
    JSON.stringify(resultOf(loaded)),
    ...d.mails.map((m) => `${m.subject}\n${m.text}`),
  ].join('\n');
  expect(jobView(loaded.meta).error).toEqual({
    code: 'SIEX_NOT_CONFIGURED',
    message: "the gateway's connection to SIEX is not set up; support has been alerted",
  });
  expect(d.mails).toHaveLength(1);
  expect(shown).not.toMatch(/KeyVault|kv-siex-prod|siex-username|siex\.internal|8443/);
  expect(d.logged.join('\n')).toContain(reference);
});

it('where SIEX cannot tell, support releases the records with the admin command: one in SIEX, one not', async () => {
  const job = await newJob(2);
  const siex = siexLosing('crear timed out');
  const d = deps(siex.port);
  await deliverUntilPoisoned(d, job.jobId);
  // SIEX refuses the repeat under the batch's key (it holds another document under it): it cannot say.
  siex.recover();
  const refusing = deps({
    ...siex.port,
    submit: async () => Promise.reject(new IuwsError('crear answered 409', { code: 'SIEX_REJECTED', status: 409 })),
  });
  await runExportJob(refusing, job.jobId);
  const stuck = resultOf((await svc.jobs.load(job.jobId))!);
  expect(stuck.error.map((e) => e.code)).toEqual(['OUTCOME_UNKNOWN', 'OUTCOME_UNKNOWN']);
  expect(stuck.error[0].message).toContain('support must check SIEX and release it');
  // Nothing left the gateway could ask SIEX: off the watch list until support acts.
  expect(await svc.watch.read(job.jobId)).toBeNull();
  expect(await exportAgain(job.ids)).toEqual(['RECORD_OUTCOME_UNKNOWN', 'RECORD_OUTCOME_UNKNOWN']);

  const [inSiex, notInSiex] = job.ids;
  const wrong = await runAdminCli(
    ['release-unknown', String(job.jobId), 'in-siex', '999999999'],
    inProcessConnection(SCOPE),
  );
  expect([wrong.code, wrong.stderr]).toEqual([1, expect.stringContaining('999999999')]);
  const first = await runAdminCli(
    ['release-unknown', String(job.jobId), 'in-siex', String(inSiex)],
    inProcessConnection(SCOPE),
  );
  expect([first.code, first.stdout]).toEqual([
    0,
    expect.stringContaining(`released 1 record(s) as in-siex: ${inSiex}`),
  ]);
  const rest = await runAdminCli(['release-unknown', String(job.jobId), 'not-in-siex'], inProcessConnection(SCOPE));
  expect([rest.code, rest.stdout]).toEqual([0, expect.stringContaining(`as not-in-siex: ${notInSiex}`)]);

  const loaded = (await svc.jobs.load(job.jobId))!;
  expect(resultOf(loaded)).toEqual({
    data: [{ result: 'ok', id: inSiex, urn: `urn:ngsi-ld:AgriPhytosanitary:${inSiex}` }],
    error: [
      {
        result: 'error',
        id: notInSiex,
        urn: `urn:ngsi-ld:AgriPhytosanitary:${notInSiex}`,
        code: 'NOT_PROCESSED',
        message: 'support checked SIEX: it does not have this record, which can be exported again',
      },
    ],
  });
  expect(await exportAgain([inSiex])).toEqual(['RECORD_ALREADY_EXPORTED']);
  expect(typeof (await exportAgain([notInSiex]))).toBe('number');

  // The sweeper queues the job once more, and its owner hears that every outcome is known.
  const queued: number[] = [];
  await sweepExportJobs({ watch: svc.watch, jobs: svc.jobs, enqueue: async (m) => void queued.push(m.jobId) });
  expect(queued).toContain(job.jobId);
  await runExportJob(refusing, job.jobId);
  expect(refusing.mails.map((m) => m.subject)).toEqual([`SIEX export job ${job.jobId}: every outcome is known now`]);
  expect((await svc.jobs.meta(job.jobId))!.reconcile).toBe('told');
});

describe('deletions of records SIEX holds', () => {
  /** The DELETE use case, answered as the HTTP edge answers it. */
  const deleting =
    (enqueue: UseCaseParts['enqueueExport'] = async () => undefined) =>
    async (input: ReturnType<typeof change>) =>
      asReply(
        await createUseCases({ ...svc, enqueueExport: enqueue })
          .records(phytoEntry)
          .delete(input),
      );
  const change = (recordId: number, idempotencyKey: string | null = null) => ({
    client: me,
    agrifarmId,
    recordId,
    ifMatch: null,
    idempotencyKey,
  });
  const codesOf = (p: Promise<unknown>) =>
    p.then(
      () => [] as string[],
      (e: unknown) => {
        if (!(e instanceof DomainError)) throw e;
        return e.violations.map((v) => v.code);
      },
    );

  /** Records exported to SIEX (the job delivered once, SIEX answering). */
  async function exportedRecords(n: number): Promise<number[]> {
    const job = await newJob(n);
    const siex = siexLosing('crear timed out');
    siex.recover();
    await runExportJob(deps(siex.port), job.jobId);
    expect(resultOf((await svc.jobs.load(job.jobId))!).data).toHaveLength(n);
    return job.ids;
  }

  it('while a deletion’s outcome is unknown, the record can be neither amended nor deleted; support then releases it by what SIEX has', async () => {
    const [gone, kept] = await exportedRecords(2);
    const jobs: number[] = [];
    for (const id of [gone, kept]) {
      const started = await deleting()(change(id));
      expect(started.status).toBe(202);
      jobs.push((JSON.parse(started.body) as { id: number }).id);
      await deliverUntilPoisoned(deps(siexLosing('crear timed out').port), jobs.at(-1)!);
    }
    const amend = createUseCases(svc).records(phytoEntry).amend;
    for (const id of [gone, kept]) {
      expect(await codesOf(amend({ ...change(id), patch: { dose: 0.62 } }))).toEqual(['RECORD_OUTCOME_UNKNOWN']);
      expect(await codesOf(deleting()(change(id)))).toEqual(['RECORD_OUTCOME_UNKNOWN']);
    }

    // Support found the first record gone from SIEX: the deletion took effect, so it is deleted here too.
    const first = await runAdminCli(['release-unknown', String(jobs[0]), 'not-in-siex'], inProcessConnection(SCOPE));
    expect(first.code).toBe(0);
    expect(resultOf((await svc.jobs.load(jobs[0]))!)).toEqual({
      data: [{ result: 'ok', id: gone, urn: `urn:ngsi-ld:AgriPhytosanitary:${gone}` }],
      error: [],
    });
    expect(
      (await svc.kinds.of(phytoEntry).store.readApplication(farm.meta, gone, null)).application?.pointer.state,
    ).toBe('deleted');
    expect((await svc.kinds.of(phytoEntry).store.readHistory(farm.meta, gone))!.at(-1)!.kind).toBe('deleted');

    // The second is still in SIEX: the deletion did not happen; the record stays exported and can be deleted again.
    const second = await runAdminCli(['release-unknown', String(jobs[1]), 'in-siex'], inProcessConnection(SCOPE));
    expect(second.code).toBe(0);
    expect(resultOf((await svc.jobs.load(jobs[1]))!).error).toEqual([
      {
        result: 'error',
        id: kept,
        urn: `urn:ngsi-ld:AgriPhytosanitary:${kept}`,
        code: 'NOT_PROCESSED',
        message: 'support checked SIEX: it still has this record, whose deletion can be asked for again',
      },
    ]);
    const pointer = (await svc.kinds.of(phytoEntry).store.readPointers(farm.meta, [kept])).get(kept)!;
    expect([pointer.state, isExported(pointer.exportState), unknownJob(pointer.exportState)]).toEqual([
      'active',
      true,
      0,
    ]);
    expect((await deleting()(change(kept))).status).toBe(202);
  });

  it('a deletion whose job cannot be queued is 503 and forgets its Idempotency-Key: the retry starts it anew', async () => {
    const [id] = await exportedRecords(1);
    const down = deleting(async () => Promise.reject(new Error('queue down')));
    expect(await codesOf(down(change(id, 'delete-once')))).toEqual(['QUEUE_UNAVAILABLE']);
    const retried = await deleting()(change(id, 'delete-once'));
    expect(retried.status).toBe(202);
    const jobId = (JSON.parse(retried.body) as { id: number }).id;
    expect((await svc.jobs.meta(jobId))!.status).toBe('Iniciando');
    // and a retry of that one is its answer again
    expect(await deleting()(change(id, 'delete-once'))).toEqual(retried);
  });
});
