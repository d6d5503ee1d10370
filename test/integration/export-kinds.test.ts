import { DateTime } from 'luxon';
import { Services } from '../../shared/app/services';
import { Client } from '../../shared/clients/client-store';
import { formatDate } from '../../shared/domain/dates';
import { ExportKinds } from '../../shared/export/export-kinds';
import { startDeletion, startExport } from '../../shared/export/export-service';
import { resultOf, startAnswer } from '../../shared/http/job-answers';
import { MailPort } from '../../shared/export/notifications';
import { failExportJob, runExportJob, WorkerDeps } from '../../shared/export/worker';
import { SiexPort } from '../../shared/export/siex-port';
import { FarmIndex } from '../../shared/farms/farm-index';
import { RunningSiexSimulator, startSiexSimulator } from '../../local/siex-simulator/server';
import { mineralBody, slurryBody } from '../helpers/fertilization-fixtures';
import { amendFertilization, seedFertilization } from '../helpers/fertilization-store';
import { InProcessFarm, inProcessFarm, simulatorIuws } from '../helpers/in-process-export';
import { asExportReply, asReply, inProcessWorker } from '../helpers/phyto-stack';
import { fertilizationEntry } from '../../shared/fertilization/kind-entry';

/**
 * Issue 25, item 4: one export job takes treatments and fertilizations together, sends one CUE document per farm with
 * its TratamFito and Fertilizacion blocks to the SIEX simulator (in process, over HTTP, through the IUWS client), and
 * settles each record by its own section's verdict: treatment n and fertilization n are two records, whose IdAjena
 * SIEX keeps apart. Fertilizations follow the treatments: an amendment is sent again under the same IdAjenaFerti, a
 * deletion as `Borrar`, a lost answer settles as outcome unknown and is learnt from SIEX later, and the e-mail counts
 * each kind.
 */
let t: InProcessFarm;
let svc: Services;
let me: Client;
let farm: FarmIndex;
let kinds: ExportKinds;
let sim: RunningSiexSimulator;

beforeAll(async () => {
  t = await inProcessFarm('export-kinds', 'kinds');
  ({ svc, me, farm } = t);
  kinds = await svc.exportKinds();
  sim = await startSiexSimulator({ knobs: { processingMs: 0 }, log: () => undefined });
});

afterAll(async () => {
  await sim.stop();
});

const yesterday = () => formatDate(DateTime.now().minus({ days: 1 }));

function deps(siex: SiexPort = iuws()): WorkerDeps & { mails: { subject: string; text: string }[] } {
  const mails: { subject: string; text: string }[] = [];
  const mailer: MailPort = { send: async (m) => void mails.push(m) };
  return { ...inProcessWorker(svc, kinds, { siex, mailer, poll: { firstMs: 1, maxMs: 5, deadlineMs: 5_000 } }), mails };
}

const iuws = (attempts = 4): SiexPort =>
  simulatorIuws(
    sim.url,
    kinds.all().map((k) => k.cue),
    attempts,
  );

const treatmentUrn = (id: number) => `urn:ngsi-ld:AgriPhytosanitary:${id}`;
const fertilizationUrn = (id: number) => `urn:ngsi-ld:AgriFertilize:${id}`;

async function exportJob(urns: string[], on: InProcessFarm = t): Promise<number> {
  const start = { kinds, jobs: svc.jobs, watch: svc.watch, enqueue: async () => undefined };
  const body = urns.map((id) => ({ id }));
  return (await startExport(start, on.me, on.farm, on.agrifarmId, body, await svc.jobIds.take())).jobId;
}

/** Seeds fertilizations on the farm's vine, one enclosure after another; the first under `id` when given. */
async function fertilizations(n: number, body = mineralBody, o: { id?: number; on?: InProcessFarm } = {}) {
  const on = o.on ?? t;
  const vines = on.farm.doc.idcps.filter((e) => on.farm.cropOf(e).typecropId === '102').map((e) => String(e.idcp));
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const fields = { dateStart: yesterday(), idcp: [vines[i % vines.length]] };
    ids.push(await seedFertilization(svc, on.me, on.agrifarmId, body(fields), i === 0 ? o.id : undefined));
  }
  return ids;
}

const pointer = async (id: number, on: InProcessFarm = t) =>
  (await svc.kinds.of(fertilizationEntry).store.readPointers(on.farm.meta, [id])).get(id);
const held = (id: number, on: InProcessFarm = t) =>
  sim.state.notebook('Fertilizacion', on.farm.meta.codigoRea).filter((e) => e.idAjena === id);

it('takes treatments and fertilizations in one job: one CUE document with both sections, each record settled by its own section', async () => {
  // A farm of its own: its fertilization ids are those this test gives, and no other test's.
  const on = await inProcessFarm('export-kinds-mixed', 'kinds');
  const [slurry] = await fertilizations(1, slurryBody, { on });
  const [a, b] = await on.registerSendable(2);
  // Fertilization n beside treatment n: SIEX keeps the two sequences of IdAjena apart, and so must the job. (Each kind
  // counts on its own, so treatment n is taken as the id of a fertilization seeded for the purpose.)
  const [treatment, other] = a === slurry ? [b, a] : [a, b];
  const [same] = await fertilizations(1, mineralBody, { id: treatment, on });
  const before = sim.state.listSubmissions(true).length;
  const jobId = await exportJob(
    [treatmentUrn(treatment), fertilizationUrn(same), treatmentUrn(other), fertilizationUrn(slurry)],
    on,
  );
  const d = deps();
  await runExportJob(d, jobId);

  const job = (await svc.jobs.load(jobId))!;
  expect([job.meta.status, job.meta.total, job.meta.accepted]).toEqual(['FinalizadoCompleto', 4, 4]);
  expect(resultOf(job)).toEqual({
    data: [
      { result: 'ok', id: treatment, urn: `urn:ngsi-ld:AgriPhytosanitary:${treatment}` },
      { result: 'ok', id: treatment, type: 'AgriFertilize', urn: `urn:ngsi-ld:AgriFertilize:${treatment}` },
      { result: 'ok', id: other, urn: `urn:ngsi-ld:AgriPhytosanitary:${other}` },
      { result: 'ok', id: slurry, type: 'AgriFertilize', urn: `urn:ngsi-ld:AgriFertilize:${slurry}` },
    ].sort((a, b) => a.id - b.id),
    error: [],
  });
  const sent = sim.state.listSubmissions(true).slice(before);
  expect(sent).toHaveLength(1);
  const [cuaderno] = (sent[0].document as { CUADERNO: { ActividadesExplotacion: Record<string, unknown[]> }[] })
    .CUADERNO;
  expect(Object.keys(cuaderno.ActividadesExplotacion)).toEqual(['TratamFito', 'Fertilizacion']);
  expect(cuaderno.ActividadesExplotacion.Fertilizacion).toHaveLength(2);
  expect(held(same, on)).toHaveLength(1);
  expect(held(slurry, on)).toHaveLength(1);
  expect(sim.state.notebook('TratamFito', on.farm.meta.codigoRea).some((e) => e.idAjena === treatment)).toBe(true);
  expect((await pointer(same, on))?.exportState).toMatchObject({ kind: 'exported', siexBlocks: [same] });
  expect((await svc.kinds.of(fertilizationEntry).store.readHistory(on.farm.meta, slurry))!.map((v) => v.kind)).toEqual([
    'created',
    'exported',
  ]);
  expect(d.mails).toHaveLength(1);
  expect(d.mails[0].text).toContain('By kind: AgriPhytosanitary 2 of 2 accepted, AgriFertilize 2 of 2 accepted.');
  expect(d.mails[0].text).toContain(`${fertilizationUrn(same)}: ok`);
});

it('takes the pending fertilizations with the treatments (pending=1)', async () => {
  const f = await inProcessFarm('export-kinds-pending', 'kinds');
  const [treatment] = await f.registerSendable(1);
  const [ferti] = await fertilizations(1, mineralBody, { on: f });
  const { exportRecords } = await import('../../shared/export/export-service');
  const reply = asExportReply(
    await exportRecords(
      {
        kinds,
        farms: svc.farms,
        jobs: svc.jobs,
        jobIds: svc.jobIds,
        keys: svc.exportKeys,
        watch: svc.watch,
        enqueue: async () => undefined,
        startAnswer,
      },
      { client: f.me, agrifarmId: f.agrifarmId, body: [], pending: true, idempotencyKey: null },
    ),
  );
  const { id: jobId, records } = JSON.parse(reply.body) as { id: number; records: number };
  expect(records).toBe(2);
  const items = [...(await svc.jobs.load(jobId))!.items.values()].map((i) => [i.type, i.recordId]);
  expect(items).toEqual(
    expect.arrayContaining([
      ['AgriPhytosanitary', treatment],
      ['AgriFertilize', ferti],
    ]),
  );
});

it('an exported fertilization amended is sent again under the same IdAjenaFerti: SIEX holds one block, the new one', async () => {
  const [id] = await fertilizations(1);
  await runExportJob(deps(), await exportJob([fertilizationUrn(id)]));
  expect((held(id)[0].block as any).AplicacionMaterialFertilizante.Dosis).toBe(300);
  await amendFertilization(svc, me, t.agrifarmId, id, { dose: 250 });
  expect((await pointer(id))?.exportState.kind).toBe('changed');
  const jobId = await exportJob([fertilizationUrn(id)]);
  await runExportJob(deps(), jobId);
  expect(resultOf((await svc.jobs.load(jobId))!)).toEqual({
    data: [{ result: 'ok', id, type: 'AgriFertilize', urn: `urn:ngsi-ld:AgriFertilize:${id}` }],
    error: [],
  });
  const now = held(id);
  expect(now).toHaveLength(1);
  expect((now[0].block as any).AplicacionMaterialFertilizante.Dosis).toBe(250);
  expect((await svc.kinds.of(fertilizationEntry).store.readHistory(farm.meta, id))!.map((v) => v.kind)).toEqual([
    'created',
    'exported',
    'amended',
    're-exported',
  ]);
});

it('an exported fertilization deleted: the deletion job sends Borrar, SIEX no longer holds it, and it leaves the gateway', async () => {
  const [id] = await fertilizations(1);
  await runExportJob(deps(), await exportJob([fertilizationUrn(id)]));
  expect(held(id)).toHaveLength(1);
  const reply = asReply(
    await startDeletion(
      { kinds, jobs: svc.jobs, jobIds: svc.jobIds, watch: svc.watch, enqueue: async () => undefined, startAnswer },
      me,
      farm,
      t.agrifarmId,
      { type: 'AgriFertilize', pointer: (await pointer(id))! },
      null,
    ),
  );
  const jobId = (JSON.parse(reply.body) as { id: number }).id;
  const d = deps();
  await runExportJob(d, jobId);
  expect(resultOf((await svc.jobs.load(jobId))!)).toEqual({
    data: [{ result: 'ok', id, type: 'AgriFertilize', urn: `urn:ngsi-ld:AgriFertilize:${id}` }],
    error: [],
  });
  expect(held(id)).toEqual([]);
  expect(await pointer(id)).toBeUndefined();
  expect((await svc.kinds.of(fertilizationEntry).store.readHistory(farm.meta, id))!.map((v) => v.kind)).toEqual([
    'created',
    'exported',
    'deleted',
  ]);
  expect(d.mails[0].subject).toBe(`SIEX deletion job ${jobId}: FinalizadoCompleto`);
});

it('a lost answer settles both kinds as outcome unknown; SIEX is asked later, and both are known and exported', async () => {
  const [treatment] = await t.registerSendable(1);
  const [ferti] = await fertilizations(1);
  const jobId = await exportJob([treatmentUrn(treatment), fertilizationUrn(ferti)]);
  // SIEX takes the document and the connection drops before its answer: the only try may have reached it.
  sim.state.control({ resetCrearNext: 1 });
  const d = deps(iuws(1));
  await expect(runExportJob(d, jobId)).rejects.toThrow();
  await failExportJob(d, jobId);
  const failed = (await svc.jobs.load(jobId))!;
  expect([failed.meta.status, failed.meta.reconcile]).toEqual(['Fallido', 'pending']);
  expect(resultOf(failed).error.map((e) => [e.id, e.type, e.code])).toEqual(
    expect.arrayContaining([
      [treatment, undefined, 'OUTCOME_UNKNOWN'],
      [ferti, 'AgriFertilize', 'OUTCOME_UNKNOWN'],
    ]),
  );
  expect((await pointer(ferti))?.exportState.kind).toBe('outcome-unknown');
  expect(d.mails[0].text).toContain('By kind: AgriPhytosanitary 0 of 1 accepted, AgriFertilize 0 of 1 accepted.');

  // The reconciliation sends the batch again under its key: SIEX answers the request it took, with both verdicts.
  const later = deps();
  await runExportJob(later, jobId);
  const known = (await svc.jobs.load(jobId))!;
  expect(resultOf(known)).toEqual({
    data: [
      { result: 'ok', id: treatment, urn: `urn:ngsi-ld:AgriPhytosanitary:${treatment}` },
      { result: 'ok', id: ferti, type: 'AgriFertilize', urn: `urn:ngsi-ld:AgriFertilize:${ferti}` },
    ].sort((a, b) => a.id - b.id),
    error: [],
  });
  expect((await pointer(ferti))?.exportState.kind).toBe('exported');
  expect(held(ferti)).toHaveLength(1);
  expect(later.mails.map((m) => m.subject)).toEqual([`SIEX export job ${jobId}: every outcome is known now`]);
});
