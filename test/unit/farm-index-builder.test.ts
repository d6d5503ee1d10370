import { buildFarmIndex, IdKind } from '../../shared/backoffice/farm-index-builder';
import { Farm } from '../../shared/farms/farm';
import { FarmIndex, FarmIndexDoc } from '../../shared/farms/farm-index';
import { sigpacCode } from '../../shared/farms/sigpac';
import { enclosure, testFarm } from '../helpers/dataset';

/** An id source like the counters: one increasing sequence per kind, recording every id handed out. */
function idSource() {
  const next: Record<IdKind, number> = { AgriFarm: 100, AgriCrop: 200, AgriParcel: 300, idcp: 1000 };
  const taken: { kind: IdKind; id: number }[] = [];
  const takeId = async (kind: IdKind) => {
    const id = next[kind]++;
    taken.push({ kind, id });
    return id;
  };
  return { takeId, taken };
}

/** idcp by `typecrop~code|sigpac code`, the combination it stands for. */
function idcpMap(doc: FarmIndexDoc): Map<string, number> {
  return new Map(
    doc.idcps.map((e) => [`${doc.crops[e.crop].typecropId}~${doc.crops[e.crop].code}|${sigpacCode(e)}`, e.idcp]),
  );
}

const clone = (f: Farm): Farm => structuredClone(f);

describe('buildFarmIndex', () => {
  it('gives a first import new ids: one farm, one per crop, per parcel, and per crop × enclosure', async () => {
    const ids = idSource();
    const doc = await buildFarmIndex(testFarm('R1'), null, '01-03-2026 10:00:00', ids.takeId);
    expect(doc.meta).toMatchObject({
      farmId: 100,
      rea: 'R1',
      year: 2026,
      codigoRea: '',
      dateCreated: '01-03-2026 10:00:00',
    });
    expect(doc.crops.map((c) => [c.cropId, c.typecropId, c.code])).toEqual([
      [200, '102', 1001],
      [201, '101', 2001],
    ]);
    expect(doc.idcps.map((e) => [e.idcp, e.crop, e.parcelId, e.parcelName, sigpacCode(e), e.dimension])).toEqual([
      [1000, 0, 300, 'La Hoya', '46-213-0-0-12-45-1', '2.35'],
      [1001, 0, 300, 'La Hoya', '46-213-0-0-12-45-2', '1.10'],
      [1002, 0, 301, 'El Pinar', '46-213-0-0-14-7-1', '3.80'],
      // the same enclosure under another crop is another combination: its own idcp
      [1003, 1, 302, 'Los Olivos', '46-213-0-0-12-45-1', '2.35'],
    ]);
  });

  it('marks an enclosure nitrate-vulnerable under every crop when any of its rows says so', async () => {
    const farm = testFarm('R1');
    farm.crops[0].parcels[0].sigpac[0].nitrateVulnerable = true;
    const doc = await buildFarmIndex(farm, null, '', idSource().takeId);
    expect(doc.idcps.map((e) => [sigpacCode(e), e.nitrateVulnerable ?? false])).toEqual([
      ['46-213-0-0-12-45-1', true],
      ['46-213-0-0-12-45-2', false],
      ['46-213-0-0-14-7-1', false],
      ['46-213-0-0-12-45-1', true],
    ]);
  });

  it('takes the 14-character REA as codigoRea, or the explicit codigoRea', async () => {
    const a = await buildFarmIndex(testFarm('ES460000000001'), null, '', idSource().takeId);
    expect(a.meta.codigoRea).toBe('ES460000000001');
    const b = await buildFarmIndex(
      testFarm('46000000001', { codigoRea: 'ES460000000009' }),
      null,
      '',
      idSource().takeId,
    );
    expect(b.meta.codigoRea).toBe('ES460000000009');
  });

  it("keeps the holding's sustainable input management as the back office says it, and nothing when it says nothing", async () => {
    const says = async (sustainableInputs: boolean | undefined) => {
      const { sustainableInputs: _, ...farm } = testFarm('46000000001');
      const doc = await buildFarmIndex(
        sustainableInputs === undefined ? farm : { ...farm, sustainableInputs },
        null,
        '',
        idSource().takeId,
      );
      return doc.meta;
    };
    expect((await says(false)).sustainableInputs).toBe(false);
    expect((await says(true)).sustainableInputs).toBe(true);
    expect(await says(undefined)).not.toHaveProperty('sustainableInputs');
  });

  it('reuses every id on a re-import of the same farm, and takes no new id', async () => {
    const first = await buildFarmIndex(testFarm('R1'), null, '01-03-2026 10:00:00', idSource().takeId);
    const ids = idSource();
    const second = await buildFarmIndex(testFarm('R1'), first, '02-03-2026 11:00:00', ids.takeId);
    expect(ids.taken).toEqual([]);
    expect(second).toEqual(first); // dateCreated kept from the first import too
  });

  it('gives a new enclosure a new idcp and keeps every existing one', async () => {
    const ids = idSource();
    const first = await buildFarmIndex(testFarm('R1'), null, 'd', ids.takeId);
    const changed = clone(testFarm('R1'));
    changed.crops[0].parcels[0].sigpac.push(enclosure(12, 45, 3));
    changed.crops[0].parcels.unshift({ name: 'Nueva', sigpac: [enclosure(20, 1, 1)] }); // new parcel, listed first
    const second = await buildFarmIndex(changed, first, 'd', ids.takeId);
    const before = idcpMap(first);
    const after = idcpMap(second);
    for (const [combination, idcp] of before) expect(after.get(combination)).toBe(idcp);
    const added = [...after].filter(([k]) => !before.has(k));
    expect(added.map(([k]) => k).sort()).toEqual(['102~1001|46-213-0-0-12-45-3', '102~1001|46-213-0-0-20-1-1']);
    for (const [, idcp] of added) expect([...before.values()]).not.toContain(idcp);
    expect(new Set(second.idcps.map((e) => e.idcp)).size).toBe(second.idcps.length);
    // parcel and crop ids are stable; the new parcel has a new id
    const parcelIds = (doc: FarmIndexDoc) => new Map(doc.idcps.map((e) => [e.parcelName, e.parcelId]));
    expect(parcelIds(second).get('La Hoya')).toBe(parcelIds(first).get('La Hoya'));
    expect(parcelIds(second).get('El Pinar')).toBe(parcelIds(first).get('El Pinar'));
    expect([...parcelIds(first).values()]).not.toContain(parcelIds(second).get('Nueva'));
    expect(second.crops.map((c) => c.cropId)).toEqual(first.crops.map((c) => c.cropId));
    expect(second.meta.farmId).toBe(first.meta.farmId);
  });

  it('drops enclosures and crops that are gone, and keeps the ids of what remains', async () => {
    const first = await buildFarmIndex(testFarm('R1'), null, 'd', idSource().takeId);
    const changed = clone(testFarm('R1'));
    changed.crops[0].parcels[0].sigpac.splice(0, 1); // 46-213-0-0-12-45-1 of the vine
    changed.crops.splice(1, 1); // the olive grove
    const second = await buildFarmIndex(changed, first, 'd', idSource().takeId);
    expect([...idcpMap(second)]).toEqual([
      ['102~1001|46-213-0-0-12-45-2', idcpMap(first).get('102~1001|46-213-0-0-12-45-2')],
      ['102~1001|46-213-0-0-14-7-1', idcpMap(first).get('102~1001|46-213-0-0-14-7-1')],
    ]);
    expect(second.crops).toHaveLength(1);
    expect(new FarmIndex(second).byIdcp.has(idcpMap(first).get('101~2001|46-213-0-0-12-45-1')!)).toBe(false);
  });

  it('keeps the idcp when the enclosure is written with leading zeros or crop names change', async () => {
    const first = await buildFarmIndex(testFarm('R1'), null, 'd', idSource().takeId);
    const changed = clone(testFarm('R1'));
    changed.crops[0].parcels[0].sigpac[0] = { ...changed.crops[0].parcels[0].sigpac[0], prov: '046', pol: '012' };
    changed.crops[0].name = 'TEMPRANILLO TINTO';
    const ids = idSource();
    const second = await buildFarmIndex(changed, first, 'd', ids.takeId);
    expect(ids.taken).toEqual([]);
    expect(second.idcps.map((e) => e.idcp)).toEqual(first.idcps.map((e) => e.idcp));
    expect(second.crops[0].name).toBe('TEMPRANILLO TINTO');
  });

  it('moves an enclosure to another parcel with its idcp, taking the parcel id of its new parcel', async () => {
    const first = await buildFarmIndex(testFarm('R1'), null, 'd', idSource().takeId);
    const changed = clone(testFarm('R1'));
    const moved = changed.crops[0].parcels[0].sigpac.pop()!; // 12-45-2 from La Hoya …
    changed.crops[0].parcels[1].sigpac.push(moved); // … to El Pinar
    const second = await buildFarmIndex(changed, first, 'd', idSource().takeId);
    const entry = second.idcps.find((e) => sigpacCode(e) === '46-213-0-0-12-45-2')!;
    expect(entry.idcp).toBe(idcpMap(first).get('102~1001|46-213-0-0-12-45-2'));
    expect(entry.parcelName).toBe('El Pinar');
    expect(entry.parcelId).toBe(first.idcps.find((e) => e.parcelName === 'El Pinar')!.parcelId);
  });

  it('builds lookups that find every enclosure by crop and SIGPAC code, and every idcp', async () => {
    const doc = await buildFarmIndex(testFarm('R1'), null, 'd', idSource().takeId);
    const index = new FarmIndex(doc);
    expect(index.byCrop.get('102~1001')!.get('46-213-0-0-14-7-1')!.idcp).toBe(1002);
    expect(index.byCrop.get('101~2001')!.get('46-213-0-0-12-45-1')!.idcp).toBe(1003);
    expect(index.byCrop.get('101~2001')!.has('46-213-0-0-14-7-1')).toBe(false);
    expect(index.cropOf(index.byIdcp.get(1003)!).name).toBe('BLANQUETA');
    expect(index.byIdcp.size).toBe(4);
  });
});
