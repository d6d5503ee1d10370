import { siexSimulatorControl } from '../../local/siex-simulator/control';
import {
  ExportFarm,
  exportFarm,
  gatewayCalls,
  recordNumber,
  registerRecords,
  SIEX_FIELDS,
  theOnlyMail,
} from '../helpers/export-stack';
import { call, Keys, Reply } from '../helpers/http';
import { amend, body, list, REGISTER_PATH } from '../helpers/phyto-stack';

/**
 * Issue 13 against SIEX (the shared stack's simulator): a record completed after registration exports `ok`; an
 * exported record amended and exported again is replaced in SIEX under the same IdAjena, not duplicated; an exported
 * record deleted goes to SIEX with `Borrar: true` through a job, and leaves the gateway once SIEX accepted it.
 */
const gw = gatewayCalls();
const siex = () => siexSimulatorControl(process.env.SIEX_SIMULATOR_URL!);
let farm: ExportFarm;

const recordPath = (id: string, suffix = '') =>
  `${REGISTER_PATH}${encodeURIComponent(id)}${suffix}?agrifarmId=${encodeURIComponent(farm.agrifarmId)}`;
const patch = (keys: Keys, id: string, changes: unknown): Promise<Reply> => amend(keys, farm.agrifarmId, id, changes);
const history = async (id: string): Promise<{ kind: string; jobId?: number }[]> =>
  (await call('GET', recordPath(id, '/history'), { keys: farm.keys })).json;

/** Exports the records and waits for the job to settle; answers the job's result. */
async function exported(ids: string[]): Promise<{ jobId: number; result: any }> {
  const started = await gw.exportCue(farm, ids);
  expect(started.status).toBe(202);
  const jobId = started.json.id as number;
  await gw.settled(farm.keys, jobId);
  return { jobId, result: (await gw.result(farm.keys, jobId)).json };
}

/** What SIEX holds under a record's IdAjena (its first block), or undefined. */
async function held(id: string): Promise<any> {
  return (await siex().notebook('TratamFito', farm.codigoRea)).find((e) => e.idAjena === recordNumber(id))?.block;
}

beforeAll(async () => {
  farm = await exportFarm('amend-siex');
});

it('a record completed with its efficacy after registration exports ok', async () => {
  const { efficacy, ...withoutEfficacy } = SIEX_FIELDS;
  const [id] = await registerRecords(farm, 1, withoutEfficacy);
  expect((await patch(farm.keys, id, { efficacy })).status).toBe(200);
  const { result } = await exported([id]);
  expect(result).toEqual({ data: [{ result: 'ok', id: recordNumber(id), urn: id }], error: [] });
  expect((await held(id)).Eficacia).toBe(1);
});

it('an exported record amended and exported again: SIEX holds one TratamFito, the new one', async () => {
  const [id] = await registerRecords(farm, 1);
  await exported([id]);
  expect((await held(id)).ProductosFito[0].Dosis).toBe(0.61);
  const amended = await patch(farm.keys, id, { dose: 0.62 });
  expect([amended.status, amended.json[0].exported]).toEqual([200, '0']);
  const again = await exported([id]);
  expect(again.result).toEqual({ data: [{ result: 'ok', id: recordNumber(id), urn: id }], error: [] });
  const notebook = (await siex().notebook('TratamFito', farm.codigoRea)).filter((e) => e.idAjena === recordNumber(id));
  expect(notebook).toHaveLength(1);
  expect((notebook[0].block as any).ProductosFito[0].Dosis).toBe(0.62);
  expect((await history(id)).map((v) => v.kind)).toEqual(['created', 'exported', 'amended', 're-exported']);
});

it('an exported record deleted: a job sends Borrar, SIEX no longer holds it, and it leaves the gateway', async () => {
  const [id] = await registerRecords(farm, 1);
  await exported([id]);
  expect(await held(id)).toBeDefined();
  const key = { 'Idempotency-Key': `delete-exported-${id}` };
  const res = await call('DELETE', recordPath(id), { keys: farm.keys, headers: key });
  expect(res.status).toBe(202);
  expect(res.json).toMatchObject({ id: expect.any(Number), status: 'Iniciando', message: expect.any(String) });
  // a retry under the same key answers the same job
  expect((await call('DELETE', recordPath(id), { keys: farm.keys, headers: key })).text).toBe(res.text);
  const jobId = res.json.id as number;
  const { job } = await gw.settled(farm.keys, jobId);
  expect(job.status.name).toBe('FinalizadoCompleto');
  expect((await gw.result(farm.keys, jobId)).json).toEqual({
    data: [{ result: 'ok', id: recordNumber(id), urn: id }],
    error: [],
  });
  expect(await held(id)).toBeUndefined();
  const deletion = (await siex().submissions()).find(
    (s) => s.ids.TratamFito?.includes(recordNumber(id)) && JSON.stringify(s.document).includes('"Borrar":true'),
  );
  expect(deletion).toBeDefined();
  expect((await list(farm.keys, farm.agrifarmId)).json.map((r: { id: string }) => r.id)).not.toContain(id);
  const versions = await history(id);
  expect(versions.map((v) => v.kind)).toEqual(['created', 'exported', 'deleted']);
  expect(versions.at(-1)!.jobId).toBe(jobId);
  const mail = await theOnlyMail(process.env.MAIL_STUB_URL!, jobId);
  expect(mail.subject).toBe(`SIEX deletion job ${jobId}: FinalizadoCompleto`);
  // deleted: a second deletion is 404
  expect((await call('DELETE', recordPath(id), { keys: farm.keys })).status).toBe(404);
});

it('an exported record cannot be amended or deleted while its deletion job runs', async () => {
  const [id] = await registerRecords(farm, 1);
  await exported([id]);
  await siex().set({ processingMs: 1500 });
  try {
    const res = await call('DELETE', recordPath(id), { keys: farm.keys });
    expect(res.status).toBe(202);
    const busy = await patch(farm.keys, id, { dose: 0.6 });
    expect([busy.status, busy.json.errors.map((e: { code: string }) => e.code)]).toEqual([409, ['RECORD_IN_EXPORT']]);
    await gw.settled(farm.keys, res.json.id);
  } finally {
    await siex().set({ processingMs: 100 });
  }
});

it('a record on two crops amended to one: its re-export deletes the crop it no longer has from SIEX', async () => {
  const res = await call('POST', `${REGISTER_PATH}?agrifarmId=${encodeURIComponent(farm.agrifarmId)}`, {
    keys: farm.keys,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body({ idcp: [farm.vine[1], farm.olive], ...SIEX_FIELDS })),
  });
  expect(res.status).toBe(201);
  const id = res.json[0].id as string;
  // This farm's blocks only: other files export to the same simulator meanwhile.
  const ids = async () => new Set((await siex().notebook('TratamFito', farm.codigoRea)).map((e) => e.idAjena));
  const before = await ids();
  await exported([id]);
  // its blocks: the record id for its first crop, an id of its own (10 digits at most) for the olive
  const mine = [...(await ids())].filter((n) => !before.has(n));
  expect(mine).toHaveLength(2);
  expect(mine).toContain(recordNumber(id));
  expect(mine.every((n) => n <= 9_999_999_999)).toBe(true);
  const blocks = async () => [...(await ids())].filter((n) => mine.includes(n));
  expect((await patch(farm.keys, id, { idcp: [farm.vine[1]] })).status).toBe(200);
  const again = await exported([id]);
  expect(again.result).toEqual({ data: [{ result: 'ok', id: recordNumber(id), urn: id }], error: [] });
  expect(await blocks()).toEqual([recordNumber(id)]);
});
