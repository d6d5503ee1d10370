import { DateTime } from 'luxon';
import { Services } from '../../shared/app/services';
import { Client } from '../../shared/clients/client-store';
import { startExport } from '../../shared/export/export-service';
import { resultOf } from '../../shared/export/job-views';
import { failExportJob, MailPort, runExportJob, SiexPort, WorkerDeps } from '../../shared/export/worker';
import { accessibleFarm } from '../../shared/farms/farm-service';
import { FarmIndex } from '../../shared/farms/farm-index';
import { DomainError } from '../../shared/domain/errors';
import { statusOf } from '../../shared/http/error-status';
import { sendableFarm, SIEX_FIELDS } from '../helpers/export-stack';
import { body, inProcessRegister, inProcessServices, seedPhyto, testClient, uniqueRea } from '../helpers/phyto-stack';
import { CAMPAIGN } from '../helpers/dataset';

/**
 * A job that cannot finish, on the real Azurite: what SIEX may already have must not be sent again blindly, and a
 * SIEX that cannot be used at all fails the job at once instead of after every redelivery.
 */
jest.setTimeout(60_000);

const rea = uniqueRea();
const client = testClient('export-failed', [rea]);
const keys = { sidKey: client.sidKey, apiKey: client.apiKey };
let svc: Services;
let me: Client;
let farm: FarmIndex;
let agrifarmId: string;
let register: ReturnType<typeof inProcessRegister>;

beforeAll(async () => {
  await seedPhyto({ farms: [sendableFarm(rea)], clients: [client] });
  svc = inProcessServices();
  me = (await svc.gate.findClient(client.sidKey))!;
  register = inProcessRegister(svc, () => DateTime.now());
  const info = (await svc.farms.lookupInfo(rea, CAMPAIGN))!;
  agrifarmId = `urn:ngsi-ld:AgriFarm:${info.farmId}`;
  farm = await accessibleFarm(svc.farms, me, agrifarmId);
});

async function newJob(n: number): Promise<{ jobId: number; ids: number[]; urns: { id: string }[] }> {
  const vine = farm.doc.idcps.filter((e) => farm.cropOf(e).typecropId === '102').map((e) => String(e.idcp));
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await register(
      keys,
      agrifarmId,
      JSON.stringify(body({ idcp: [vine[(i + ids.length) % vine.length]], ...SIEX_FIELDS })),
    );
    if (res.status !== 201) throw new Error(`register: ${res.status} ${res.text}`);
    ids.push(Number(String(res.json[0].id).split(':').pop()));
  }
  const urns = ids.map((id) => ({ id: `urn:ngsi-ld:AgriPhytosanitary:${id}` }));
  const started = await startExport(
    { phyto: svc.phyto, jobs: svc.jobs, jobIds: svc.jobIds, enqueue: async () => undefined },
    me,
    farm,
    agrifarmId,
    urns,
  );
  return { jobId: started.id, ids, urns };
}

function deps(siex: SiexPort): WorkerDeps & { mails: string[] } {
  const mails: string[] = [];
  const mailer: MailPort = { send: async (m) => void mails.push(m.subject) };
  return {
    jobs: svc.jobs,
    phyto: svc.phyto,
    farms: svc.farms,
    siex,
    mailer,
    batchSize: 10,
    poll: { firstMs: 1, maxMs: 2, deadlineMs: 20 },
    mails,
  };
}

it('a job failed after sending: its records are OUTCOME_UNKNOWN and cannot be exported again blindly', async () => {
  const job = await newJob(2);
  let submissions = 0;
  // SIEX takes the document and never finishes processing it.
  const d = deps({
    submit: async () => `REQ-${++submissions}`,
    status: async () => ({ state: 'pending', results: [] }),
  });
  await expect(runExportJob(d, job.jobId)).rejects.toThrow(/not finished/);
  await failExportJob(d, job.jobId); // the poison handler, after the last delivery

  const loaded = (await svc.jobs.load(job.jobId))!;
  expect(loaded.meta.status).toBe('Fallido');
  expect(resultOf(loaded).error.map((e) => [e.id, e.code])).toEqual(job.ids.map((id) => [id, 'OUTCOME_UNKNOWN']));
  expect(d.mails).toEqual([`SIEX export job ${job.jobId}: Fallido`]);
  expect(submissions).toBe(1);
  const again = await startExport(
    { phyto: svc.phyto, jobs: svc.jobs, jobIds: svc.jobIds, enqueue: async () => undefined },
    me,
    farm,
    agrifarmId,
    job.urns,
  ).then(
    () => null,
    (e: unknown) => e as DomainError,
  );
  expect(again && statusOf(again.violations)).toBe(409);
  expect(again?.violations.map((e) => e.code)).toEqual(['RECORD_OUTCOME_UNKNOWN', 'RECORD_OUTCOME_UNKNOWN']);
});

it('SIEX that cannot be used (credentials refused) fails the job on the first delivery, records free to export later', async () => {
  const job = await newJob(1);
  const refused = Object.assign(new Error('SIEX refused the credentials'), { code: 'SIEX_AUTH', retryable: false });
  const d = deps({ submit: async () => Promise.reject(refused), status: async () => ({ state: 'done', results: [] }) });
  await runExportJob(d, job.jobId);
  const loaded = (await svc.jobs.load(job.jobId))!;
  expect([loaded.meta.status, loaded.meta.error?.code]).toEqual(['Fallido', 'SIEX_AUTH']);
  expect(resultOf(loaded).error.map((e) => e.code)).toEqual(['NOT_PROCESSED']);
  expect(d.mails).toEqual([`SIEX export job ${job.jobId}: Fallido`]);
  // Nothing reached SIEX, so the record can be exported again once SIEX is usable.
  const again = await startExport(
    { phyto: svc.phyto, jobs: svc.jobs, jobIds: svc.jobIds, enqueue: async () => undefined },
    me,
    farm,
    agrifarmId,
    job.urns,
  );
  expect(again.status).toBe('Iniciando');
});
