import { VersionWatch } from '../../shared/cache/version-watch';
import { ClientStore } from '../../shared/clients/client-store';
import { DIRECTORY_CHECK_MS } from '../../shared/app/services';
import { accessibleFarm } from '../../shared/farms/farm-service';
import { FarmStore } from '../../shared/farms/farm-store';
import { DomainError } from '../../shared/domain/errors';
import { sendableFarm } from '../helpers/export-stack';
import { inProcessServices, seedPhyto, testClient, uniqueRea } from '../helpers/phyto-stack';
import { CAMPAIGN } from '../helpers/dataset';

/**
 * Issue 15, finding 10: an unknown farm id took a storage read on every request while a foreign one (known, another
 * client's) came from memory, so the answer time told which ids exist. Misses are now remembered as long as hits, and
 * the back office's directory version still gets a client or farm it adds served within DIRECTORY_CHECK_MS.
 */

const rea = uniqueRea();
const owner = testClient('dir-owner', [rea]);
const stranger = testClient('dir-stranger', []);

beforeAll(async () => {
  await seedPhyto({ farms: [sendableFarm(rea)], clients: [owner, stranger] });
});

afterEach(() => jest.restoreAllMocks());

/**
 * While reads are counted, the directory version is not looked at: other test files seed the shared storage at any
 * time, and a seed seen by a check would rightly empty the caches and add reads that are not this test's.
 */
const withoutDirectoryChanges = () => jest.spyOn(VersionWatch.prototype, 'check').mockResolvedValue(undefined);

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'served',
    (e: unknown) => (e instanceof DomainError ? e.violations.map((v) => v.code).join() : String(e)),
  );

it('answers a foreign farm and an unknown one alike: one storage read each, then memory', async () => {
  const svc = inProcessServices(60);
  const reads = jest.spyOn(FarmStore.prototype, 'readIndex');
  const me = (await svc.gate.findClient(stranger.sidKey))!;
  const foreign = `urn:ngsi-ld:AgriFarm:${(await svc.farms.lookupInfo(rea, CAMPAIGN))!.farmId}`;
  const unknown = 'urn:ngsi-ld:AgriFarm:987654321';
  const directoryStill = withoutDirectoryChanges();
  for (let i = 0; i < 3; i++) {
    expect(await refusal(accessibleFarm(svc.farms, me, foreign))).toBe('AGRIFARM_NOT_FOUND');
    expect(await refusal(accessibleFarm(svc.farms, me, unknown))).toBe('AGRIFARM_NOT_FOUND');
  }
  directoryStill.mockRestore();
  expect(reads.mock.calls.map(([id]) => id).sort()).toEqual(
    [Number(foreign.split(':').pop()), 987654321].sort((a, b) => a - b),
  );
});

it('remembers an unknown SID key like a known one, and serves a client the back office adds within a second', async () => {
  const svc = inProcessServices(60);
  const reads = jest.spyOn(ClientStore.prototype, 'findBySidKey');
  const newcomer = testClient('dir-newcomer', [rea]);
  const directoryStill = withoutDirectoryChanges();
  for (let i = 0; i < 3; i++) {
    expect(await svc.gate.findClient(owner.sidKey)).not.toBeNull();
    expect(await svc.gate.findClient(newcomer.sidKey)).toBeNull();
  }
  expect(reads).toHaveBeenCalledTimes(2);
  directoryStill.mockRestore();

  await seedPhyto({ farms: [], clients: [newcomer] });
  await new Promise((r) => setTimeout(r, DIRECTORY_CHECK_MS + 100));
  expect((await svc.gate.findClient(newcomer.sidKey))?.id).toBe(newcomer.id);
  expect((await svc.gate.findClient(owner.sidKey))?.id).toBe(owner.id);
});
