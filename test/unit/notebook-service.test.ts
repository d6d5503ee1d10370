import { DomainError } from '../../shared/domain/errors';
import { ExportKind, ExportKinds } from '../../shared/export/export-kinds';
import { FarmIndex } from '../../shared/farms/farm-index';
import { ExportState } from '../../shared/records/export-state';
import { recordRowKey } from '../../shared/records/record-keys';
import { RecordPointer } from '../../shared/records/record-rows';
import { farmNotebook } from '../../shared/register/notebook-service';
import { IuwsError } from '../../shared/siex/iuws-client';
import { SiexEntry, SiexRegister } from '../../shared/siex/iuws-register';

/**
 * Issue 38, item 10: the reconciliation's use case, kind-free: which records count as held by SIEX (by their export
 * state), which section each kind's blocks are in, and what the caller is told when the farm or SIEX cannot answer.
 */
const farm = (codigoRea: string) =>
  new FarmIndex({
    meta: {
      farmId: 31,
      rea: 'T1',
      codigoRea,
      year: 2026,
      name: 'Finca',
      province: '',
      communityCode: '10',
      communityName: 'Comunitat Valenciana',
      ownerNif: '',
      dateCreated: '01-01-2026 00:00:00',
    },
    crops: [],
    idcps: [],
  });

/** A kind of the registry whose records are in these export states, by id. */
function kind(urnType: string, section: string, states: Record<number, ExportState>): ExportKind {
  const ids = Object.keys(states).map(Number);
  const pointer = (id: number) => ({ id, exportState: states[id] }) as RecordPointer;
  return {
    urnType,
    label: urnType,
    cue: { section, idAjena: `IdAjena${section}` },
    keys: { keys: async () => ids.map((id) => recordRowKey(31, 0, id)) },
    store: { readPointers: async (_f: unknown, wanted: number[]) => new Map(wanted.map((id) => [id, pointer(id)])) },
  } as unknown as ExportKind;
}

const register = (entries: SiexEntry[] | Error): SiexRegister => ({
  notebook: async () => {
    if (entries instanceof Error) throw entries;
    return entries;
  },
  holding: async () => null,
});

const claim = null;
const kinds = new ExportKinds([
  kind('AgriOne', 'Riego', {
    1: { kind: 'exported', claim, siexBlocks: [1] },
    2: { kind: 'unsent', claim },
    3: { kind: 'sent-elsewhere' },
    4: { kind: 'outcome-unknown', job: 9, known: { kind: 'changed', claim, siexBlocks: [4, 40] } },
    5: { kind: 'outcome-unknown', job: 9, known: { kind: 'unsent', claim } },
  }),
  kind('AgriTwo', 'Cosecha', { 1: { kind: 'changed', claim, siexBlocks: [1] } }),
]);

describe('farmNotebook', () => {
  it("takes each kind's records SIEX should hold, under its kind's section, and no other", async () => {
    const out = await farmNotebook(
      { kinds, register: register([{ section: 'Riego', idAjena: 4, block: {} }]) },
      farm('ES460000000001'),
      'urn:ngsi-ld:AgriFarm:31',
    );
    expect(out.matched).toEqual([{ section: 'Riego', idAjena: 4, record: 'urn:ngsi-ld:AgriOne:4' }]);
    expect(out.missingInSiex).toEqual([
      { section: 'Cosecha', idAjena: 1, record: 'urn:ngsi-ld:AgriTwo:1', state: 'changed' },
      { section: 'Riego', idAjena: 1, record: 'urn:ngsi-ld:AgriOne:1', state: 'exported' },
      { section: 'Riego', idAjena: 40, record: 'urn:ngsi-ld:AgriOne:4', state: 'outcome-unknown' },
    ]);
    expect([out.agrifarmId, out.codigoRea, out.campaign]).toEqual(['urn:ngsi-ld:AgriFarm:31', 'ES460000000001', 2026]);
  });

  it('is 422 FARM_WITHOUT_REA_CODE for a farm without a REA code, and asks SIEX nothing', async () => {
    const notAsked = register(new Error('SIEX was asked'));
    const e = await farmNotebook({ kinds, register: notAsked }, farm(''), 'urn:ngsi-ld:AgriFarm:31').catch((x) => x);
    expect(e).toBeInstanceOf(DomainError);
    expect((e as DomainError).violations.map((v) => [v.code, v.path])).toEqual([
      ['FARM_WITHOUT_REA_CODE', 'query.agrifarmId'],
    ]);
  });

  it('is 503 SIEX_READ_FAILED with Retry-After when SIEX cannot be read; other failures stay the gateway’s own', async () => {
    const down = register(new IuwsError('SIEX GET /exportar: no answer within 2000 ms', { code: 'SIEX_TIMEOUT' }));
    const e = await farmNotebook({ kinds, register: down }, farm('ES460000000001'), 'x').catch((x) => x);
    expect(e).toBeInstanceOf(DomainError);
    expect((e as DomainError).violations.map((v) => v.code)).toEqual(['SIEX_READ_FAILED']);
    expect((e as DomainError).retryAfterSeconds).toBeGreaterThan(0);
    const bug = new TypeError('a bug');
    await expect(farmNotebook({ kinds, register: register(bug) }, farm('ES460000000001'), 'x')).rejects.toBe(bug);
  });
});
