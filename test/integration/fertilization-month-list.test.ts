import { DateTime } from 'luxon';
import { createServices } from '../../shared/app/services';
import { createUseCases } from '../../shared/app/use-cases';
import { parseSettings } from '../../shared/config/config';
import { formatDate, ZONE } from '../../shared/domain/dates';
import { accessibleFarm } from '../../shared/farms/farm-service';
import { silentLogger } from '../../shared/log/logger';
import { systemClock } from '../../shared/time/clock';
import { testClient, uniqueRea } from '../helpers/dataset';
import { sendableFarm } from '../helpers/export-stack';
import { mineralBody } from '../helpers/fertilization-fixtures';
import { inProcessStorage, seedPhyto } from '../helpers/phyto-stack';
import { fertilizationEntry } from '../../shared/fertilization/kind-entry';

/**
 * RD 1051/2022 gives a fertilization a month to be registered (shared/fertilization/recording-window.ts), longer than
 * the treatments' MAX_BACKDATE_DAYS. A farm's list reads its keys older than the index's window once and keeps them,
 * since no new record can be dated there (shared/records/record-key-index.ts): so the fertilizations' index must
 * reach back the decree's month, or a record registered 20 days back after the list was read would be missing from
 * it while the operators' window is 7 days.
 */
it('lists a fertilization registered 20 days back after the list was read, with MAX_BACKDATE_DAYS at 7', async () => {
  const applied = DateTime.now().setZone(ZONE).startOf('day').minus({ days: 20 });
  const rea = uniqueRea();
  const client = testClient('ferti-month', [rea]);
  // The farm of the application's campaign, which early in January is last year's.
  await seedPhyto({ farms: [sendableFarm(rea, 4, applied.year)], clients: [client] });
  const svc = createServices(
    parseSettings({
      ...inProcessStorage('ferti-month'),
      AUTH_MODE: 'local',
      MAX_BACKDATE_DAYS: '7',
      REFERENCE_CACHE_SECONDS: '0',
    }),
    systemClock,
    silentLogger,
  );
  const useCases = createUseCases({ ...svc, now: () => DateTime.now() });
  const me = (await svc.gate.findClient(client.sidKey))!;
  const agrifarmId = `urn:ngsi-ld:AgriFarm:${(await svc.farms.lookupInfo(rea, applied.year))!.farmId}`;
  const farm = await accessibleFarm(svc.farms, me, agrifarmId);
  const vine = farm.doc.idcps.find((e) => farm.cropOf(e).typecropId === '102')!;
  const list = () => useCases.records(fertilizationEntry).list(me, agrifarmId, {}, {});

  expect((await list()).total).toBe(0);
  const created = await useCases.records(fertilizationEntry).register({
    client: me,
    agrifarmId,
    exported: false,
    body: mineralBody({ dateStart: formatDate(applied), idcp: [String(vine.idcp)] }),
    idempotencyKey: null,
  });
  expect(created.outcome).toBe('created');
  const page = await list();
  expect([page.total, page.records.map((r) => r.dateStart)]).toEqual([1, [formatDate(applied)]]);
});
