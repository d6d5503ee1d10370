import { DateTime } from 'luxon';
import { pendingRecords } from '../../shared/export/pending-export';
import { jobsHolding } from '../../shared/export/job-claims';
import { FarmIndex } from '../../shared/farms/farm-index';
import {
  EXPORT_PATHS,
  ExportFarm,
  exportFarm,
  gatewayCalls,
  problemOf,
  recordNumber,
  registerRecords,
  request,
  SIEX_FIELDS,
} from '../helpers/export-stack';
import { gatewayUrl } from '../helpers/http';
import { body, inProcessServices, register } from '../helpers/phyto-stack';

/**
 * Issue 26 item 5: `exportCUE?pending=1` with an empty array exports what waits for SIEX, and only that: not a record
 * already exported or registered as sent elsewhere, not one SIEX would refuse for missing data, not one a running job
 * holds. Over HTTP on the shared stack; the cap and `morePending` in process, with a cap of one.
 */
const gw = gatewayCalls();
let farm: ExportFarm;

const exportPending = (f: ExportFarm, ids: unknown[] = [], query = '&pending=1') =>
  request(gatewayUrl(), 'POST', `${EXPORT_PATHS[0]}?agrifarmId=${encodeURIComponent(f.agrifarmId)}${query}`, {
    keys: f.keys,
    body: ids,
  });

beforeAll(async () => {
  farm = await exportFarm('export-pending');
});

it('exports every complete record not yet exported, says how many, then finds nothing left', async () => {
  const complete = await registerRecords(farm, 3);
  // SIEX would settle this one MISSING_DATA: a pending export leaves it out rather than choose it every time.
  await registerRecords(farm, 1, { ...SIEX_FIELDS, efficacy: undefined });
  const elsewhere = await register(
    farm.keys,
    farm.agrifarmId,
    body({ idcp: [farm.vine[0]], ...SIEX_FIELDS }),
    {},
    '&exported=1',
  );
  expect(elsewhere.status).toBe(201);
  const exported = await gw.exportCue(farm, complete.slice(0, 1));
  expect(exported.status).toBe(202);
  await gw.settled(farm.keys, exported.json.id);

  const res = await exportPending(farm);
  expect([res.status, res.json.records, res.json.morePending]).toEqual([202, 2, false]);
  // While that job runs it holds its records: nothing else waits.
  expect(problemOf(await exportPending(farm))).toEqual([409, ['NOTHING_TO_EXPORT']]);
  const { job } = await gw.settled(farm.keys, res.json.id);
  expect(job.status.name).toBe('FinalizadoCompleto');
  const result = await gw.result(farm.keys, res.json.id);
  expect(result.json.data.map((d: { id: number }) => d.id).sort()).toEqual(complete.slice(1).map(recordNumber).sort());
  expect(problemOf(await exportPending(farm))).toEqual([409, ['NOTHING_TO_EXPORT']]);
});

it('refuses a record list with pending=1, and an empty list without it', async () => {
  expect(problemOf(await exportPending(farm, [{ id: 'urn:ngsi-ld:AgriPhytosanitary:1' }]))).toEqual([
    400,
    ['INVALID_VALUE'],
  ]);
  expect(problemOf(await exportPending(farm, [], ''))).toEqual([400, ['INVALID_VALUE']]);
  expect(problemOf(await exportPending(farm, [], '&pending=2'))).toEqual([400, ['INVALID_VALUE']]);
});

it('takes at most the cap, oldest application first, and says that more wait', async () => {
  const f = await exportFarm('export-pending-cap');
  const urns = await registerRecords(f, 3);
  const svc = inProcessServices();
  const index = (await svc.farms.index(Number(f.agrifarmId.split(':').pop()))) as FarmIndex;
  const deps = {
    kind: (await svc.exportKinds()).of('AgriPhytosanitary'),
    holding: (p: Parameters<typeof jobsHolding>[2], at: DateTime) => jobsHolding(svc.jobs, index, p, at),
  };
  // registerRecords dates every record one day ago at the same time: ids break the tie, the first registered first.
  expect(await pendingRecords(deps, index, DateTime.now(), 2)).toEqual({
    ids: urns
      .slice(0, 2)
      .map(recordNumber)
      .sort((a, b) => a - b),
    more: true,
  });
  expect(await pendingRecords(deps, index, DateTime.now(), 3)).toEqual({
    ids: urns.map(recordNumber).sort((a, b) => a - b),
    more: false,
  });
});
