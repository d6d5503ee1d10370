import { contracts } from '../../shared/app/contracts';
import { GATEWAY_TABLES, RECORD_KINDS } from '../../shared/app/record-kinds';
import { ROUTES } from '../../shared/app/routes';
import { fertilizationEntry } from '../../shared/fertilization/kind-entry';
import { recordContracts } from '../../shared/http/contracts/record-contracts';
import { recordRoutes } from '../../shared/http/record-routes';
import { OPERATION_TAGS } from '../../shared/openapi/tags';
import { phytoEntry } from '../../shared/phyto/kind-entry';
import { KindEntry, RECORD_OPERATIONS } from '../../shared/records/kind-entry';

const addresses = (routes: ReturnType<typeof recordRoutes>) =>
  RECORD_OPERATIONS.map((op) => [op, routes[op].operationId, routes[op].method, routes[op].routes]);

describe('a record kind entry', () => {
  it('yields exactly its seven operations, named from its stem, at its collection', () => {
    expect(addresses(recordRoutes({ stem: 'Harvest', collection: 'v1/entities/agriharvests' }))).toEqual([
      ['register', 'registerHarvest', 'POST', ['v1/entities/agriharvests']],
      ['batch', 'registerHarvestBatch', 'POST', ['v1/entities/agriharvests/batch']],
      ['list', 'listHarvest', 'GET', ['v1/entities/agriharvests']],
      ['read', 'readHarvest', 'GET', ['v1/entities/agriharvests/{id}']],
      ['amend', 'amendHarvest', 'PATCH', ['v1/entities/agriharvests/{id}']],
      ['delete', 'deleteHarvest', 'DELETE', ['v1/entities/agriharvests/{id}']],
      ['history', 'harvestHistory', 'GET', ['v1/entities/agriharvests/{id}/history']],
    ]);
  });

  it("keeps the treatments' and the fertilizations' operation ids and paths as they were", () => {
    expect(addresses(recordRoutes(phytoEntry))).toEqual([
      ['register', 'registerPhytosanitary', 'POST', ['v1/entities/agriphytosanitarys']],
      ['batch', 'registerPhytosanitaryBatch', 'POST', ['v1/entities/agriphytosanitarys/batch']],
      ['list', 'listPhytosanitary', 'GET', ['v1/entities/agriphytosanitarys']],
      ['read', 'readPhytosanitary', 'GET', ['v1/entities/agriphytosanitarys/{id}']],
      ['amend', 'amendPhytosanitary', 'PATCH', ['v1/entities/agriphytosanitarys/{id}']],
      ['delete', 'deletePhytosanitary', 'DELETE', ['v1/entities/agriphytosanitarys/{id}']],
      ['history', 'phytosanitaryHistory', 'GET', ['v1/entities/agriphytosanitarys/{id}/history']],
    ]);
    expect(addresses(recordRoutes(fertilizationEntry))).toEqual([
      ['register', 'registerFertilization', 'POST', ['v1/entities/agrifertilizes']],
      ['batch', 'registerFertilizationBatch', 'POST', ['v1/entities/agrifertilizes/batch']],
      ['list', 'listFertilization', 'GET', ['v1/entities/agrifertilizes']],
      ['read', 'readFertilization', 'GET', ['v1/entities/agrifertilizes/{id}']],
      ['amend', 'amendFertilization', 'PATCH', ['v1/entities/agrifertilizes/{id}']],
      ['delete', 'deleteFertilization', 'DELETE', ['v1/entities/agrifertilizes/{id}']],
      ['history', 'fertilizationHistory', 'GET', ['v1/entities/agrifertilizes/{id}/history']],
    ]);
  });

  it.each(RECORD_KINDS.map((k) => [k.urnType, k as KindEntry] as const))(
    '%s: its contracts are its routes, in the document and with the records tag',
    (_, kind) => {
      const routes = recordRoutes(kind);
      const built = recordContracts(kind);
      expect(Object.keys(built)).toEqual([...RECORD_OPERATIONS]);
      for (const op of RECORD_OPERATIONS) {
        const { operationId, method, routes: paths } = built[op];
        expect({ operationId, method, routes: paths }).toEqual(routes[op]);
        expect(ROUTES[operationId as keyof typeof ROUTES]).toEqual(routes[op]);
        expect(OPERATION_TAGS[operationId as keyof typeof OPERATION_TAGS]).toBe('records');
        expect(contracts).toContain(built[op]);
      }
      // A kind's contracts are built once per process, whichever asks first.
      expect(recordContracts(kind)).toBe(built);
    },
  );

  it.each(RECORD_KINDS.map((k) => [k.urnType, k as KindEntry] as const))(
    '%s: batch items refer to its registration body, and the entry agrees with the kind it loads',
    (urnType, kind) => {
      const { batch, register } = recordContracts(kind);
      expect(register.body.meta()?.id).toBe(`${urnType}Request`);
      expect(batch.body.meta()?.id).toBe(`${urnType}Batch`);
      expect(batch.body.safeParse(Array.from({ length: 101 }, () => ({}))).success).toBe(false);
      const loaded = kind.load.kind();
      expect([loaded.urnType, loaded.format]).toEqual([kind.urnType, kind.load.reads().format]);
      expect(GATEWAY_TABLES).toContain(kind.table);
    },
  );
});
