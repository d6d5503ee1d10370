import { PhytoRequest } from '../../shared/phyto/wire';
import { madrid } from '../helpers/phyto-fixtures';
import {
  ADVISOR_LAST_DAY,
  APPLICATORS,
  body,
  farmOf,
  inProcessRegister,
  inProcessServices,
  phytoFarm,
  seedPhyto,
  testClient,
  uniqueRea,
} from '../helpers/phyto-stack';

/**
 * Issue 23: a ROPO card is in force through its last day, as applicator and as advisor, through the HTTP pipeline
 * (the registration handler, on real Azurite) with the clock injected around that day: the day before, the first and
 * last second of the day itself, and the day after. Past it, the state is told only with the holder's NIF.
 */
const LAST = ADVISOR_LAST_DAY; // 15-06-2026
const NOW = madrid('17-06-2026 12:00:00');
const [DAY_BEFORE, FIRST_SECOND, LAST_SECOND, DAY_AFTER] = [
  '14-06-2026 10:00:00',
  `${LAST} 00:00:00`,
  `${LAST} 23:59:59`,
  '16-06-2026 00:00:00',
];

const rea = uniqueRea();
const client = testClient('card-days', [rea]);
let farm: Awaited<ReturnType<typeof farmOf>>;

beforeAll(async () => {
  await seedPhyto({ farms: [phytoFarm(rea, 2, NOW.year)], clients: [client] });
  farm = await farmOf(rea, NOW.year);
}, 60_000);

const send = inProcessRegister(inProcessServices(), () => NOW);
const card = APPLICATORS.advisorUntil;
type Advisor = NonNullable<PhytoRequest['advisor']>;

async function registerOn(dateApplication: string, o: Partial<PhytoRequest>) {
  const res = await send(
    client,
    farm.agrifarmId,
    JSON.stringify(body({ idcp: [farm.vine[0]], dateApplication, ...o })),
  );
  return { status: res.status, codes: res.json?.errors?.map((e: { code: string }) => e.code) ?? [], text: res.text };
}

describe(`a card whose last day is ${LAST}`, () => {
  const asApplicator = { applicator: { user: { type: 'UserMetadata' as const, nif: card.nif, ropo: card.ropo } } };
  const advisor = (nif?: string): { advisor: Advisor } => ({
    advisor: { type: 'UserMetadata', ropo: card.ropo, ...(nif ? { nif } : {}) },
  });

  it.each([DAY_BEFORE, FIRST_SECOND, LAST_SECOND])('is in force at %s, as applicator and as advisor', async (at) => {
    expect((await registerOn(at, asApplicator)).status).toBe(201);
    expect((await registerOn(at, advisor(card.nif))).status).toBe(201);
    expect((await registerOn(at, advisor())).status).toBe(201);
  });

  it(`is not at ${DAY_AFTER}: said so with the holder's NIF, and without it answered as an unknown card`, async () => {
    expect(await registerOn(DAY_AFTER, asApplicator)).toMatchObject({ status: 400, codes: ['ROPO_EXPIRED'] });
    expect(await registerOn(DAY_AFTER, advisor(card.nif))).toMatchObject({
      status: 400,
      codes: ['ADVISOR_NOT_IN_FORCE'],
    });
    const byNumber = await registerOn(DAY_AFTER, advisor());
    expect(byNumber).toMatchObject({ status: 400, codes: ['ADVISOR_NOT_RECOGNISED'] });
    const unknown = await registerOn(DAY_AFTER, { advisor: { type: 'UserMetadata', ropo: 'ES-99999999' } });
    expect(unknown.text).toBe(byNumber.text);
    // and the applicator with another person's NIF, at the day after as before it, is the unknown card's answer
    const otherNif = { applicator: { user: { ...asApplicator.applicator.user, nif: APPLICATORS.basico.nif } } };
    const before = await registerOn(DAY_BEFORE, otherNif);
    const after = await registerOn(DAY_AFTER, otherNif);
    expect(before).toMatchObject({ status: 400, codes: ['APPLICATOR_NOT_RECOGNISED'] });
    expect(after.text).toBe(before.text);
  });
});
