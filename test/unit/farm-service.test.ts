import { ListIdcpBody } from '../../shared/api/farm-schemas';
import { buildFarmIndex } from '../../shared/backoffice/farm-index-builder';
import { Client } from '../../shared/clients/client-store';
import { FarmIndex } from '../../shared/farms/farm-index';
import { accessibleFarm, findFarmView, resolveIdcps } from '../../shared/farms/farm-service';
import { FarmReader } from '../../shared/farms/farm-store';
import { normalizeSigpac, sigpacCode } from '../../shared/farms/sigpac';
import { DomainError } from '../../shared/domain/errors';
import { statusOf } from '../../shared/http/error-status';
import { testFarm } from '../helpers/dataset';
import { checkIdcpSetShape } from '../helpers/spec-shapes';

async function farmIndex(): Promise<FarmIndex> {
  let n = 0;
  return new FarmIndex(await buildFarmIndex(testFarm('R1'), null, 'd', async () => ++n));
}

const s = (pol: string, parc: string, enc: string, prov = '46') => ({
  prov,
  town: '213',
  aggr: '0',
  zone: '0',
  pol,
  parc,
  enc,
});

function body(sigpac: ReturnType<typeof s>[][], typecropId = '102', code = 1001): ListIdcpBody {
  return {
    type: 'IDCP',
    crop: {
      type: 'TypeCropVariety',
      typecrop: { id: typecropId, type: 'TypeCrop', name: 'any name' },
      code,
      name: 'any',
    },
    regionalAttributes: sigpac.map((list) => ({ sigpac: list })),
  };
}

function thrown(f: () => unknown): DomainError {
  try {
    f();
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error('expected a DomainError');
}

const client = (farms: string[]): Client => ({
  id: 'c',
  name: 'C',
  email: 'c@x',
  apiKeyHash: '',
  expires: '',
  farms,
  apimSubscriptionId: 'c',
  webhookUrl: '',
});

describe('SIGPAC codes', () => {
  it('compose prov-town-aggr-zone-pol-parc-enc and compare numerically (046 = 46)', () => {
    expect(sigpacCode(s('12', '45', '1'))).toBe('46-213-0-0-12-45-1');
    expect(sigpacCode(s('012', '0045', '01', '046'))).toBe('46-213-0-0-12-45-1');
    expect(normalizeSigpac({ ...s('0', '0', '0'), aggr: '000' }).aggr).toBe('0');
  });
});

describe('resolveIdcps', () => {
  it('answers the idcp of every requested enclosure, in request order, across regionalAttributes items', async () => {
    const farm = await farmIndex();
    const set = resolveIdcps(
      farm,
      'urn:ngsi-ld:AgriFarm:1',
      body([[s('14', '7', '1'), s('12', '45', '1')], [s('12', '45', '2')]]),
    );
    checkIdcpSetShape(set);
    const idcpOf = (code: string) => farm.byCrop.get('102~1001')!.get(code)!.idcp;
    expect(set).toEqual({
      agrifarmId: 'urn:ngsi-ld:AgriFarm:1',
      crop: { typecrop: { id: '102', name: 'VIÑA' }, code: 1001, name: 'TEMPRANILLO' },
      idcp: [
        { idcp: idcpOf('46-213-0-0-14-7-1'), ...s('14', '7', '1') },
        { idcp: idcpOf('46-213-0-0-12-45-1'), ...s('12', '45', '1') },
        { idcp: idcpOf('46-213-0-0-12-45-2'), ...s('12', '45', '2') },
      ],
    });
  });

  it('matches codes written with leading zeros, and answers the stored spelling', async () => {
    const farm = await farmIndex();
    const plain = resolveIdcps(farm, 'f', body([[s('12', '45', '1')]]));
    const padded = resolveIdcps(farm, 'f', body([[s('012', '045', '01', '046')]]));
    expect(padded.idcp).toEqual(plain.idcp);
  });

  it('answers the crop by typecrop id and code: the same enclosure under another crop has another idcp', async () => {
    const farm = await farmIndex();
    const vine = resolveIdcps(farm, 'f', body([[s('12', '45', '1')]]));
    const olive = resolveIdcps(farm, 'f', body([[s('12', '45', '1')]], '101', 2001));
    expect(olive.crop).toEqual({ typecrop: { id: '101', name: 'OLIVO' }, code: 2001, name: 'BLANQUETA' });
    expect(olive.idcp[0].idcp).not.toBe(vine.idcp[0].idcp);
  });

  it('404s with CROP_NOT_FOUND for a variety the farm does not grow (code or typecrop differ)', async () => {
    const farm = await farmIndex();
    for (const [typecrop, code] of [
      ['102', 9999],
      ['101', 1001],
    ] as const) {
      const e = thrown(() => resolveIdcps(farm, 'f', body([[s('12', '45', '1')]], typecrop, code)));
      expect(statusOf(e.violations)).toBe(404);
      expect(e.violations.map((v) => [v.code, v.path])).toEqual([['CROP_NOT_FOUND', 'body.crop']]);
    }
  });

  it("404s listing every enclosure that is not the crop's, at its request path", async () => {
    const farm = await farmIndex();
    const e = thrown(() =>
      resolveIdcps(
        farm,
        'f',
        body([
          [s('12', '45', '1'), s('99', '1', '1')],
          [s('14', '7', '1'), s('14', '7', '2'), s('15', '102', '3')],
        ]),
      ),
    );
    expect(statusOf(e.violations)).toBe(404);
    expect(e.violations.map((v) => [v.code, v.path])).toEqual([
      ['ENCLOSURE_NOT_FOUND', 'body.regionalAttributes[0].sigpac[1]'],
      ['ENCLOSURE_NOT_FOUND', 'body.regionalAttributes[1].sigpac[1]'],
      ['ENCLOSURE_NOT_FOUND', 'body.regionalAttributes[1].sigpac[2]'],
    ]);
    // an enclosure of the farm but under another crop only: not found for this crop
    const other = thrown(() => resolveIdcps(farm, 'f', body([[s('14', '7', '1')]], '101', 2001)));
    expect(other.violations.map((v) => v.code)).toEqual(['ENCLOSURE_NOT_FOUND']);
  });
});

describe('access to farms', () => {
  /** A FarmStore stand-in: one farm (id 7, REA R1) and its view. */
  async function store(): Promise<FarmReader> {
    const index = await farmIndex();
    index.doc.meta.farmId = 7;
    return {
      lookupView: async (rea: string, year: number) => (rea === 'R1' && year === 2026 ? '[{"view":true}]' : null),
      index: async (id: number) => (id === 7 ? index : null),
    };
  }

  it('findFarmView answers the stored view only for a REA of the client', async () => {
    const farms = await store();
    expect(await findFarmView(farms, client(['R1']), 'R1', 2026)).toBe('[{"view":true}]');
    for (const [c, rea, year] of [
      [client([]), 'R1', 2026],
      [client(['R2']), 'R1', 2026],
      [client(['R1']), 'R1', 2025],
      [client(['R9']), 'R9', 2026],
    ] as const) {
      await expect(findFarmView(farms, c, rea, year)).rejects.toMatchObject({
        violations: [{ code: 'FARM_NOT_FOUND' }],
      });
    }
  });

  it('findFarmView answers a foreign farm exactly as an unknown one (same status, detail and codes)', async () => {
    const farms = await store();
    const foreign = await findFarmView(farms, client(['R9']), 'R1', 2026).catch((e: DomainError) => e);
    const unknown = await findFarmView(farms, client(['R9']), 'R9', 2026).catch((e: DomainError) => e);
    expect(foreign).toBeInstanceOf(DomainError);
    const strip = (e: unknown) => ({
      ...(e as DomainError),
      violations: (e as DomainError).violations.map((v) => v.code),
    });
    expect({ ...strip(foreign) }).toEqual({ ...strip(unknown) });
  });

  it("accessibleFarm resolves the client's farm and 404s unknown, foreign and malformed ids alike", async () => {
    const farms = await store();
    expect((await accessibleFarm(farms, client(['R1']), 'urn:ngsi-ld:AgriFarm:7')).meta.farmId).toBe(7);
    for (const [c, id] of [
      [client(['R2']), 'urn:ngsi-ld:AgriFarm:7'],
      [client(['R1']), 'urn:ngsi-ld:AgriFarm:8'],
      [client(['R1']), 'urn:ngsi-ld:AgriCrop:7'],
      [client(['R1']), '7'],
      [client(['R1']), 'urn:ngsi-ld:AgriFarm:07'],
    ] as const) {
      const e = await accessibleFarm(farms, c, id).catch((x: DomainError) => x);
      expect(e).toBeInstanceOf(DomainError);
      expect(statusOf((e as DomainError).violations)).toBe(404);
      expect(e).toMatchObject({ detail: 'agrifarmId not found or not accessible' });
      expect((e as DomainError).violations).toEqual([
        { code: 'AGRIFARM_NOT_FOUND', path: 'query.agrifarmId', message: 'agrifarmId not found or not accessible' },
      ]);
    }
  });
});
