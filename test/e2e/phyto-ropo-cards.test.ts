import { PhytoRequest } from '../../shared/phyto/wire';
import { call, Keys, Reply } from '../helpers/http';
import {
  APPLICATORS,
  body,
  daysAgo,
  farmOverHttp,
  phytoFarm,
  register,
  REGISTER_PATH,
  seedPhyto,
  testClient,
  uniqueRea,
} from '../helpers/phyto-stack';
import { checkProblemShape } from '../helpers/spec-shapes';

/**
 * Issue 23, items 5 and 6, over HTTP through the local runner: registration is no oracle for ROPO cards (the same
 * bytes for an unknown card and for any card with another person's NIF, applicator or advisor); the advisor's card is
 * checked (in force, holding `asesor`), and said why only with its holder's NIF; justification 5 needs an advisor,
 * on registration and on amendment. The boundaries of a card's last day are in
 * test/integration/phyto-card-days.test.ts, which injects the clock.
 */
const rea = uniqueRea();
const client = testClient('ropo-cards', [rea]);
let farm: Awaited<ReturnType<typeof farmOverHttp>>;

type Advisor = NonNullable<PhytoRequest['advisor']>;
const card = (c: { ropo: string; nif: string }) => ({ ropo: c.ropo, nif: c.nif });
const advisor = (a: { ropo: string; nif?: string }): Advisor => ({ type: 'UserMetadata', ...a });
const JUSTIFIED_BY_ADVISOR = [{ type: 'TypeJustification' as const, id: '5', name: 'Recomendación de asesor' }];

/** The copper product of body() has no count, interval or months: any number of these are lawful on one day. */
const lawful = (o: Partial<PhytoRequest> = {}) => body({ idcp: [farm.vine[0]], dateApplication: daysAgo(1), ...o });
const withApplicator = (c: { ropo: string; nif: string }) =>
  lawful({ applicator: { user: { type: 'UserMetadata', ...c } } });
const send = (b: unknown, keys: Keys = client): Promise<Reply> => register(keys, farm.agrifarmId, b);

function expectProblem(res: Reply, status: number, codes: string[]): void {
  expect([res.status, res.json?.errors?.map((e: { code: string }) => e.code)]).toEqual([status, codes]);
  checkProblemShape(res.json, status);
}

beforeAll(async () => {
  await seedPhyto({ farms: [phytoFarm(rea, 2)], clients: [client] });
  farm = await farmOverHttp(client, rea);
}, 60_000);

describe('the applicator: no oracle', () => {
  const someoneElse = APPLICATORS.basico.nif;

  it("an unknown card and another person's NIF on a valid, suspended or expired card answer the same bytes", async () => {
    const answers = [
      await send(withApplicator({ ropo: 'ES-99999999', nif: someoneElse })),
      await send(withApplicator({ ropo: APPLICATORS.cualificado.ropo, nif: someoneElse })),
      await send(withApplicator({ ropo: APPLICATORS.suspended.ropo, nif: someoneElse })),
      await send(withApplicator({ ropo: APPLICATORS.expired.ropo, nif: someoneElse })),
    ];
    expectProblem(answers[0], 400, ['APPLICATOR_NOT_RECOGNISED']);
    expect(answers[0].text).not.toContain('ES-99999999');
    for (const a of answers.slice(1)) expect(a.text).toBe(answers[0].text);
  });

  it("the card's state is told to the caller who gave its holder's NIF", async () => {
    expectProblem(await send(withApplicator(card(APPLICATORS.suspended))), 400, ['ROPO_SUSPENDED']);
    expectProblem(await send(withApplicator(card(APPLICATORS.expired))), 400, ['ROPO_EXPIRED']);
    // a card with the advisor registration alone applies nothing
    expectProblem(await send(withApplicator(card(APPLICATORS.advisor))), 400, ['ROPO_LEVEL_INSUFFICIENT']);
    expect((await send(withApplicator(card(APPLICATORS.cualificado)))).status).toBe(201);
  });
});

describe('the advisor', () => {
  const someoneElse = APPLICATORS.basico.nif;

  it('an advisor card in force is accepted, by number alone or with its NIF, and exported as sent', async () => {
    const byNumber = await send(lawful({ advisor: advisor({ ropo: APPLICATORS.advisor.ropo }), reviewed: '1' }));
    expect([byNumber.status, byNumber.json[0].advisor]).toEqual([201, advisor({ ropo: APPLICATORS.advisor.ropo })]);
    const spelled = ` ${APPLICATORS.advisor.nif.toLowerCase()} `;
    const withNif = await send(lawful({ advisor: advisor({ ropo: APPLICATORS.advisor.ropo, nif: spelled }) }));
    expect([withNif.status, withNif.json[0].advisor]).toEqual([201, advisor(card(APPLICATORS.advisor))]);
  });

  it("with its holder's NIF: suspended or without the advisor registration, said so", async () => {
    expectProblem(await send(lawful({ advisor: advisor(card(APPLICATORS.advisorSuspended)) })), 400, [
      'ADVISOR_NOT_IN_FORCE',
    ]);
    const notAdvisor = await send(lawful({ advisor: advisor(card(APPLICATORS.cualificado)) }));
    expectProblem(notAdvisor, 400, ['ADVISOR_NOT_REGISTERED']);
    expect(notAdvisor.json.errors[0].path).toBe('body.advisor.ropo');
    expectProblem(await send(lawful({ advisor: advisor({ ropo: APPLICATORS.advisor.ropo, nif: '91000005A' }) })), 400, [
      'NIF_INVALID',
    ]);
  });

  it("without its NIF, or with another person's, every failing card answers the same bytes as an unknown one", async () => {
    const answers = [
      await send(lawful({ advisor: advisor({ ropo: 'ES-99999999' }) })),
      await send(lawful({ advisor: advisor({ ropo: 'ES-99999999', nif: someoneElse }) })),
      await send(lawful({ advisor: advisor({ ropo: APPLICATORS.advisorSuspended.ropo }) })),
      await send(lawful({ advisor: advisor({ ropo: APPLICATORS.cualificado.ropo }) })),
      await send(lawful({ advisor: advisor({ ropo: APPLICATORS.advisor.ropo, nif: someoneElse }) })),
      await send(lawful({ advisor: advisor({ ropo: APPLICATORS.advisorSuspended.ropo, nif: someoneElse }) })),
      await send(lawful({ advisor: advisor({ ropo: APPLICATORS.expired.ropo, nif: someoneElse }) })),
    ];
    expectProblem(answers[0], 400, ['ADVISOR_NOT_RECOGNISED']);
    for (const a of answers.slice(1)) expect(a.text).toBe(answers[0].text);
  });

  it("justification 5 (an advisor's recommendation) needs an advisor: 422 on registration and on amendment", async () => {
    const alone = await send(lawful({ tj: JUSTIFIED_BY_ADVISOR }));
    expectProblem(alone, 422, ['ADVISOR_REQUIRED']);
    expect(alone.json.errors[0].path).toBe('body.tj[0]');
    const advised = await send(
      lawful({ tj: JUSTIFIED_BY_ADVISOR, advisor: advisor({ ropo: APPLICATORS.advisor.ropo }) }),
    );
    expect(advised.status).toBe(201);
    const id = advised.json[0].id as string;
    const dropAdvisor = await call(
      'PATCH',
      `${REGISTER_PATH}${encodeURIComponent(id)}?agrifarmId=${encodeURIComponent(farm.agrifarmId)}`,
      { keys: client, headers: { 'Content-Type': 'application/merge-patch+json' }, body: '{"advisor":null}' },
    );
    expectProblem(dropAdvisor, 422, ['ADVISOR_REQUIRED']);
  });
});
