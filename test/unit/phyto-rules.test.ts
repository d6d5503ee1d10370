import { PhytoRequest } from '../../shared/phyto/wire';
import { ErrorCode } from '../../shared/domain/errors';
import { statusOf } from '../../shared/http/error-status';
import { HTTP_STATUS } from '../../shared/app/error-codes';
import { levelCovers } from '../../shared/domain/ropo';
import { ADVISOR_RECOMMENDATION } from '../../shared/plant-protection/advisor-rules';
import { checkApplication } from '../../shared/phyto/rules';
import { CLOCK_SKEW_SECONDS } from '../../shared/rules/time-rules';
import {
  CARDS,
  ContextOptions,
  famolins,
  microthiol,
  OLIVE,
  phytoRequest,
  farmIndexDoc,
  poltigliaUnlimited,
  ruleContext,
  testSiexCodes,
  topik,
  UNITS,
  VINE,
  WHEAT,
} from '../helpers/phyto-fixtures';

/**
 * Every registration rule of issue 3, on both sides of each boundary, through `checkApplication` (the function the
 * service runs) with a RuleContext built by hand: a small farm index, products like the demo's, ROPO cards, stored
 * history and a fixed `now` (15-05-2026 12:00 Madrid unless a test says otherwise).
 */
function check(o: ContextOptions = {}) {
  return checkApplication(ruleContext(o));
}

function codes(o: ContextOptions = {}): string[] {
  return check(o).violations.map((v) => v.code);
}

/** Request overrides merged into the default request (MICROTHIOL 0.5 % on vine 101, 14-05-2026 10:00). */
const req = (r: ContextOptions['request'], extra: Omit<ContextOptions, 'request'> = {}): ContextOptions => ({
  request: r,
  ...extra,
});

const famolinsDose = (dose: number, measure: PhytoRequest['measure'] = UNITS.kgHa) =>
  req({ subtype: { type: 'TypePhytosanitary', name: 'FAMOLINS 80%', code: 'ES-19534' }, dose, measure });

describe('a lawful application', () => {
  it('passes every rule and resolves its locations and the authorizing use', () => {
    const { violations, resolution } = check();
    expect(violations).toEqual([]);
    expect(resolution.entries.map((e) => e.idcp)).toEqual([101]);
    expect(resolution.uses).toEqual([microthiol().uses[0]]);
  });

  it('passes on several locations of two crops when the product has a use for each', () => {
    const { violations, resolution } = check(req({ idcp: [...VINE, OLIVE], dose: 0.6 }));
    expect(violations).toEqual([]);
    expect(resolution.entries.map((e) => e.idcp)).toEqual([101, 102, 103, 201]);
    expect(resolution.uses).toHaveLength(2);
  });
});

describe('dose within the authorized range (FAMOLINS 20-30 kg/ha on vine)', () => {
  it.each([
    [30, 'exactly the maximum passes', []],
    [30.001, 'just above the maximum fails', ['DOSE_ABOVE_MAX']],
    [20, 'exactly the minimum passes', []],
    [19.999, 'just below the minimum fails', ['DOSE_BELOW_MIN']],
    [25, 'inside passes', []],
  ])('%p kg/ha: %s', (dose, _, expected) => {
    expect(codes(famolinsDose(dose))).toEqual(expected);
  });

  it('names the field, the dose and the authorized range', () => {
    const [v] = check(famolinsDose(31)).violations;
    expect(v).toEqual({ code: 'DOSE_ABOVE_MAX', path: 'body.dose', message: expect.stringContaining('20-30 kg/ha') });
    expect(v.message).toContain('31 kg/ha');
  });

  it('compares the same quantity in g/ha and t/ha as the same dose (30 kg/ha = 30,000 g/ha = 0.03 t/ha)', () => {
    expect(codes(famolinsDose(30_000, UNITS.gHa))).toEqual([]);
    expect(codes(famolinsDose(30_001, UNITS.gHa))).toEqual(['DOSE_ABOVE_MAX']);
    expect(codes(famolinsDose(20_000, UNITS.gHa))).toEqual([]);
    expect(codes(famolinsDose(19_999, UNITS.gHa))).toEqual(['DOSE_BELOW_MIN']);
    expect(codes(famolinsDose(0.03, UNITS.tHa))).toEqual([]);
    expect(codes(famolinsDose(0.0301, UNITS.tHa))).toEqual(['DOSE_ABOVE_MAX']);
    expect(codes(famolinsDose(0.02, UNITS.tHa))).toEqual([]);
  });

  it('compares % with g/hL and cc/hL (MICROTHIOL 0.25-0.8 %: 1 % = 1,000 g/hL)', () => {
    const dose = (d: number, measure: PhytoRequest['measure']) => codes(req({ dose: d, measure }));
    expect(dose(0.8, UNITS.percent)).toEqual([]);
    expect(dose(0.8001, UNITS.percent)).toEqual(['DOSE_ABOVE_MAX']);
    expect(dose(0.25, UNITS.percent)).toEqual([]);
    expect(dose(0.2499, UNITS.percent)).toEqual(['DOSE_BELOW_MIN']);
    expect(dose(800, UNITS.gHl)).toEqual([]);
    expect(dose(801, UNITS.gHl)).toEqual(['DOSE_ABOVE_MAX']);
    expect(dose(250, UNITS.ccHl)).toEqual([]);
    expect(dose(249, UNITS.ccHl)).toEqual(['DOSE_BELOW_MIN']);
  });

  it('does not compare grams with cubic centimetres per hectolitre: a mass is not a volume (a % compares with both)', () => {
    const perHl = (symbol: string, code: number) =>
      microthiol({
        uses: [{ ...microthiol().uses[0], doseMin: 250, doseMax: 800, unit: { code, symbol } }],
      });
    const ccUse = perHl('cc/hL', 64);
    const gUse = perHl('g/hL', 65);
    expect(codes(req({ dose: 500, measure: UNITS.gHl }, { products: [ccUse] }))).toEqual(['DOSE_UNIT_INCOMPATIBLE']);
    expect(codes(req({ dose: 500, measure: UNITS.ccHl }, { products: [gUse] }))).toEqual(['DOSE_UNIT_INCOMPATIBLE']);
    expect(codes(req({ dose: 500, measure: UNITS.ccHl }, { products: [ccUse] }))).toEqual([]);
    expect(codes(req({ dose: 0.5, measure: UNITS.percent }, { products: [gUse] }))).toEqual([]);
  });

  it('refuses a unit that cannot be compared with the authorized one instead of passing it (kg/ha against a % use)', () => {
    const { violations } = check(req({ dose: 0.5, measure: UNITS.kgHa }));
    expect(violations).toEqual([
      { code: 'DOSE_UNIT_INCOMPATIBLE', path: 'body.measure', message: expect.stringContaining('%') },
    ]);
    // L/ha against a kg/ha use: volume and mass are different families
    expect(codes(famolinsDose(25, UNITS.lHa))).toEqual(['DOSE_UNIT_INCOMPATIBLE']);
  });

  it('refuses an amount (SIEX 5 = kg) against a dose rate as incompatible, and a code SIEX does not have as unknown', () => {
    const { violations } = check(req({ measure: { type: 'Measure', name: 'Kilogramos', symbol: 'kg', code: 5 } }));
    expect(violations).toEqual([
      {
        code: 'DOSE_UNIT_INCOMPATIBLE',
        path: 'body.measure',
        message: 'kg cannot be compared with the authorized % on VIÑA',
      },
    ]);
    expect(check(req({ measure: { type: 'Measure', name: 'x', symbol: 'x', code: 999 } })).violations).toEqual([
      { code: 'UNKNOWN_SIEX_CODE', path: 'body.measure.code', message: expect.stringContaining('UNIDADES_MEDIDA') },
    ]);
  });

  it('refuses a measure whose symbol is not the symbol of its code (MEASURE_MISMATCH), but ignores case and spaces', () => {
    expect(codes(famolinsDose(25, { ...UNITS.kgHa, symbol: 'g/ha' }))).toEqual(['MEASURE_MISMATCH']);
    expect(codes(famolinsDose(25, { ...UNITS.kgHa, symbol: 'Kg / Ha' }))).toEqual([]);
  });

  it('reports DOSE_OUT_OF_RANGE when the dose is above one authorized range and below another', () => {
    const twoRanges = famolins({
      uses: [
        { ...famolins().uses[0], doseMin: 10, doseMax: 15 },
        { ...famolins().uses[0], doseMin: 25, doseMax: 30 },
      ],
    });
    const o = (dose: number) => ({ ...famolinsDose(dose), products: [twoRanges] });
    expect(codes(o(20))).toEqual(['DOSE_OUT_OF_RANGE']);
    expect(codes(o(15))).toEqual([]);
    expect(codes(o(25))).toEqual([]);
    expect(codes(o(31))).toEqual(['DOSE_ABOVE_MAX']);
    expect(codes(o(9))).toEqual(['DOSE_BELOW_MIN']);
  });
});

describe('product authorized and in force', () => {
  it('reports an unknown product once, and skips the rules that need the product', () => {
    const { violations } = check(req({ subtype: { type: 'TypePhytosanitary', name: 'X', code: 'ES-00001' } }));
    expect(violations).toEqual([
      { code: 'PRODUCT_NOT_FOUND', path: 'body.subtype.code', message: expect.stringContaining('ES-00001') },
    ]);
  });

  // OLIVE has no month restriction in MICROTHIOL's label, so only the dates of the product matter here.
  const onOlive = (date: string, product = microthiol()) =>
    codes({ request: { idcp: [OLIVE], dateApplication: date }, now: date, products: [product] });

  it('is in force up to and including its expiry day, not the day after (no last-use date)', () => {
    expect(onOlive('31-07-2027 23:59:59')).toEqual([]);
    expect(onOlive('01-08-2027 00:00:00')).toEqual(['PRODUCT_NOT_IN_FORCE']);
  });

  it('may still be applied after expiry until its last-use date, inclusive, and not after', () => {
    const withLastUse = microthiol({ lastUse: '31-01-2028' });
    expect(onOlive('01-08-2027 00:00:00', withLastUse)).toEqual([]);
    expect(onOlive('31-01-2028 23:59:59', withLastUse)).toEqual([]);
    expect(onOlive('01-02-2028 00:00:00', withLastUse)).toEqual(['PRODUCT_NOT_IN_FORCE']);
  });

  it('is not in force before its registration day', () => {
    expect(onOlive('13-06-2001 23:59:59')).toEqual(['PRODUCT_NOT_IN_FORCE']);
    expect(onOlive('14-06-2001 00:00:00')).toEqual([]);
  });

  it('must be authorized for the crop of every idcp: one crop without a use is reported once, naming the crop', () => {
    const famolinsReq = {
      subtype: { type: 'TypePhytosanitary' as const, name: 'FAMOLINS 80%', code: 'ES-19534' },
      dose: 25,
      measure: UNITS.kgHa,
    };
    const { violations } = check(req({ ...famolinsReq, idcp: ['101', OLIVE, '102'] }));
    expect(violations).toEqual([
      { code: 'PRODUCT_NOT_FOR_CROP', path: 'body.idcp', message: expect.stringContaining('OLIVO') },
    ]);
    expect(codes(req({ ...famolinsReq, idcp: ['101', '102'] }))).toEqual([]);
  });

  it('must be authorized against the infection given (PEST_NOT_AUTHORIZED for a pest with no use on the crop)', () => {
    const infection = (kind: 'enfermedad' | 'plaga', id: string) => ({
      type: 'TypeInfection' as const,
      kind,
      id,
      name: '',
    });
    expect(codes(req({ infection: infection('enfermedad', '148') }))).toEqual([]);
    // 42 (Negrilla) is authorized on olive, not on vine
    expect(codes(req({ infection: infection('enfermedad', '42') }))).toEqual(['PEST_NOT_AUTHORIZED']);
    expect(codes(req({ infection: infection('enfermedad', '42'), idcp: [OLIVE] }))).toEqual([]);
    // the same number in another catalogue is another pest (PLAGAS 1 exists, but no use is against it)
    expect(codes(req({ infection: infection('plaga', '1') }))).toEqual(['PEST_NOT_AUTHORIZED']);
  });

  it('finding 7: a use whose pest SIEX has no code (code 0) covers only a request naming that pest, or none', () => {
    const uncoded = microthiol({
      uses: [
        microthiol().uses[0],
        { ...microthiol().uses[0], pest: { code: 0, kind: 'plaga', name: 'Ácaros (sin código SIEX)' }, doseMax: 0.5 },
      ],
    });
    const mite = { type: 'TypeInfection' as const, kind: 'plaga' as const, id: '21', name: 'Araña roja común' };
    // it used to authorise every pest: a mite treatment passed on it
    expect(codes(req({ infection: mite, dose: 0.5 }, { products: [uncoded] }))).toEqual(['PEST_NOT_AUTHORIZED']);
    // the register's words name the pest: a request with the same words (case and accents aside) is judged by it
    const named = { ...mite, id: '2', name: 'ácaros (SIN CÓDIGO SIEX)' };
    expect(codes(req({ infection: named, dose: 0.5 }, { products: [uncoded] }))).toEqual([]);
    expect(codes(req({ infection: named, dose: 0.6 }, { products: [uncoded] }))).toEqual(['DOSE_ABOVE_MAX']);
    // a request naming no pest is judged by every use of the crop
    expect(codes(req({ dose: 0.6 }, { products: [uncoded] }))).toEqual([]);
    // a coded use for the infection wins over the uncoded ones
    expect(
      codes(req({ infection: { ...mite, kind: 'enfermedad', id: '148' }, dose: 0.6 }, { products: [uncoded] })),
    ).toEqual([]);
  });

  it("is authorized only in the use's months (vine: March to September), judged in Madrid time", () => {
    const at = (date: string) => codes({ request: { dateApplication: date }, now: date });
    expect(at('30-09-2026 23:59:59')).toEqual([]);
    expect(at('01-10-2026 00:00:00')).toEqual(['OUTSIDE_AUTHORIZED_PERIOD']);
    expect(at('01-03-2026 00:00:00')).toEqual([]);
    expect(at('28-02-2026 23:59:59')).toEqual(['OUTSIDE_AUTHORIZED_PERIOD']);
    // the olive use has no months: all year
    expect(
      codes({ request: { dateApplication: '15-01-2026 10:00:00', idcp: [OLIVE] }, now: '15-01-2026 12:00:00' }),
    ).toEqual([]);
  });
});

describe('applicator', () => {
  const by = (card: { nif: string; ropo: string }, o: ContextOptions = {}) =>
    codes({
      ...o,
      request: { ...o.request, applicator: { user: { type: 'UserMetadata', nif: card.nif, ropo: card.ropo } } },
    });

  const NOT_RECOGNISED = {
    code: 'APPLICATOR_NOT_RECOGNISED',
    path: 'body.applicator.user',
    message: 'no registered ROPO card has both that number and that NIF',
  };
  const violationsOf = (card: { nif: string; ropo: string }, o: ContextOptions = {}) =>
    check({
      ...o,
      request: { ...o.request, applicator: { user: { type: 'UserMetadata', nif: card.nif, ropo: card.ropo } } },
    }).violations;

  it('unknown ROPO: not recognised, the number not even echoed', () => {
    expect(violationsOf({ nif: CARDS.basico.nif, ropo: 'ES-99999999' })).toEqual([NOT_RECOGNISED]);
  });

  it("no oracle (issue 23): with another person's NIF, one answer whether the card is unknown, in force, suspended, expired or short of level", () => {
    const nif = CARDS.cualificado.nif;
    const topikOnWheat: ContextOptions = {
      request: {
        subtype: { type: 'TypePhytosanitary', name: 'TOPIK 24 EC', code: 'ES-19548' },
        dose: 0.2,
        measure: UNITS.lHa,
        idcp: [WHEAT],
        dateApplication: '14-04-2026 10:00:00',
      },
      now: '15-04-2026 10:00:00',
    };
    const answers = [
      violationsOf({ nif, ropo: 'ES-99999999' }),
      violationsOf({ nif, ropo: CARDS.basico.ropo }),
      violationsOf({ nif, ropo: CARDS.suspended.ropo }),
      violationsOf(
        { nif, ropo: CARDS.expiring.ropo },
        { request: { dateApplication: '01-04-2026 10:00:00' }, now: '02-04-2026 10:00:00' },
      ),
      violationsOf({ nif, ropo: CARDS.basico.ropo }, topikOnWheat),
    ];
    for (const a of answers) expect(JSON.stringify(a)).toBe(JSON.stringify([NOT_RECOGNISED]));
  });

  it('suspended card', () => {
    expect(by(CARDS.suspended)).toEqual(['ROPO_SUSPENDED']);
  });

  it('card valid through its last day (31-03-2026), expired from the next', () => {
    const on = (date: string) => by(CARDS.expiring, { request: { dateApplication: date }, now: date });
    expect(on('31-03-2026 23:59:59')).toEqual([]);
    expect(on('01-04-2026 00:00:00')).toEqual(['ROPO_EXPIRED']);
  });

  it('level: cualificado covers basico, basico does not cover cualificado, other levels do not cover basico', () => {
    const topikOnWheat: ContextOptions = {
      request: {
        subtype: { type: 'TypePhytosanitary', name: 'TOPIK 24 EC', code: 'ES-19548' },
        dose: 0.2,
        measure: UNITS.lHa,
        idcp: [WHEAT],
        dateApplication: '14-04-2026 10:00:00',
      },
      now: '15-04-2026 10:00:00',
    };
    expect(by(CARDS.cualificado, topikOnWheat)).toEqual([]);
    expect(by(CARDS.basico, topikOnWheat)).toEqual(['ROPO_LEVEL_INSUFFICIENT']);
    expect(by(CARDS.cualificado)).toEqual([]);
    expect(by(CARDS.basico)).toEqual([]);
    expect(by(CARDS.fumigador)).toEqual(['ROPO_LEVEL_INSUFFICIENT']);
    expect(levelCovers(['basico'], 'basico')).toBe(true);
    expect(levelCovers(['cualificado'], 'basico')).toBe(true);
    expect(levelCovers(['basico'], 'cualificado')).toBe(false);
    expect(levelCovers(['fumigador', 'piloto'], 'cualificado')).toBe(false);
  });

  it('NIF with a wrong control letter (and no mismatch reported on top of it)', () => {
    const { violations } = check(
      req({ applicator: { user: { type: 'UserMetadata', nif: '23456789A', ropo: CARDS.basico.ropo } } }),
    );
    expect(violations).toEqual([
      { code: 'NIF_INVALID', path: 'body.applicator.user.nif', message: expect.any(String) },
    ]);
  });

  it('a valid NIF of someone else than the card holder', () => {
    expect(by({ nif: CARDS.cualificado.nif, ropo: CARDS.basico.ropo })).toEqual(['APPLICATOR_NOT_RECOGNISED']);
  });

  it("a NIF that cannot be anyone's tells nothing of the card either: NIF_INVALID alone, whatever the card", () => {
    for (const ropo of [CARDS.suspended.ropo, CARDS.basico.ropo, 'ES-99999999']) {
      expect(by({ nif: '45678901A', ropo })).toEqual(['NIF_INVALID']);
    }
  });

  it('a card holding only the advisor registration applies nothing', () => {
    expect(by(CARDS.advisor)).toEqual(['ROPO_LEVEL_INSUFFICIENT']);
    expect(
      by(CARDS.advisorExpiring, { request: { dateApplication: '31-03-2026 10:00:00' }, now: '31-03-2026 12:00:00' }),
    ).toEqual([]);
  });

  it("the holder's NIF written in lower case or with a hyphen is the holder's", () => {
    expect(by({ nif: '23456789-d', ropo: CARDS.basico.ropo })).toEqual([]);
  });
});

describe('advisor (issue 23: RD 1311/2012, arts. 11-12)', () => {
  type Advisor = NonNullable<PhytoRequest['advisor']>;
  const advisor = (card: { ropo: string; nif?: string }): Advisor => ({ type: 'UserMetadata', ...card });
  const withNif = (card: { ropo: string; nif: string }) => advisor({ ropo: card.ropo, nif: card.nif });
  const byNumber = (card: { ropo: string }) => advisor({ ropo: card.ropo });
  const on = (a: Advisor, date = '14-05-2026 10:00:00', extra: Partial<PhytoRequest> = {}) =>
    check({ request: { advisor: a, dateApplication: date, ...extra }, now: date }).violations;
  const codesOf = (a: Advisor, date?: string, extra?: Partial<PhytoRequest>) => on(a, date, extra).map((v) => v.code);
  const NOT_RECOGNISED = [
    {
      code: 'ADVISOR_NOT_RECOGNISED',
      path: 'body.advisor.ropo',
      message: 'no registered advisor card in force on the application date has that number (and that NIF, when given)',
    },
  ];

  it('an advisor card in force is accepted, with or without its NIF (any spelling of it)', () => {
    expect(codesOf(byNumber(CARDS.advisor))).toEqual([]);
    expect(codesOf(withNif(CARDS.advisor))).toEqual([]);
    expect(codesOf(advisor({ ropo: CARDS.advisor.ropo, nif: '67890123-b' }))).toEqual([]);
  });

  it('in force through its last day (31-03-2026): the day before, the day itself to its end, not the day after', () => {
    const card = CARDS.advisorExpiring;
    for (const a of [withNif(card), byNumber(card)]) {
      expect(codesOf(a, '30-03-2026 10:00:00')).toEqual([]);
      expect(codesOf(a, '31-03-2026 00:00:00')).toEqual([]);
      expect(codesOf(a, '31-03-2026 23:59:59')).toEqual([]);
    }
    expect(on(withNif(card), '01-04-2026 00:00:00')).toEqual([
      { code: 'ADVISOR_NOT_IN_FORCE', path: 'body.advisor.ropo', message: 'ROPO ES-46000778 expired on 31-03-2026' },
    ]);
    expect(on(byNumber(card), '01-04-2026 00:00:00')).toEqual(NOT_RECOGNISED);
  });

  it("suspended, and without the advisor registration: said with the holder's NIF, not without it", () => {
    expect(on(withNif(CARDS.advisorSuspended))).toEqual([
      { code: 'ADVISOR_NOT_IN_FORCE', path: 'body.advisor.ropo', message: 'ROPO ES-46000779 is suspended' },
    ]);
    expect(on(withNif(CARDS.cualificado))).toEqual([
      {
        code: 'ADVISOR_NOT_REGISTERED',
        path: 'body.advisor.ropo',
        message: 'ROPO ES-46000123 holds no advisor registration (asesor), only cualificado',
      },
    ]);
    // an applicator card with every level but asesor is still no advisor's
    expect(codesOf(withNif(CARDS.fumigador))).toEqual(['ADVISOR_NOT_REGISTERED']);
    expect(on(byNumber(CARDS.advisorSuspended))).toEqual(NOT_RECOGNISED);
    expect(on(byNumber(CARDS.cualificado))).toEqual(NOT_RECOGNISED);
  });

  it('every failure of both checks at once, for the holder', () => {
    const lapsed = { ...CARDS.advisorExpiring, levels: ['cualificado' as const], suspended: true };
    const violations = check({
      request: { advisor: withNif(lapsed), dateApplication: '01-04-2026 10:00:00' },
      now: '01-04-2026 12:00:00',
      applicators: [...Object.values(CARDS).filter((c) => c.ropo !== lapsed.ropo), lapsed],
    }).violations;
    expect(violations.map((v) => v.code)).toEqual([
      'ADVISOR_NOT_IN_FORCE',
      'ADVISOR_NOT_IN_FORCE',
      'ADVISOR_NOT_REGISTERED',
    ]);
  });

  it("no oracle: an unknown card, and any card with another person's NIF, answer byte for byte the same", () => {
    const other = CARDS.basico.nif;
    const answers = [
      on(advisor({ ropo: 'ES-99999999', nif: other })),
      on(advisor({ ropo: 'ES-99999999' })),
      on(advisor({ ropo: CARDS.advisor.ropo, nif: other })),
      on(advisor({ ropo: CARDS.advisorSuspended.ropo, nif: other })),
      on(advisor({ ropo: CARDS.advisorExpiring.ropo, nif: other }), '01-04-2026 10:00:00'),
      on(advisor({ ropo: CARDS.cualificado.ropo, nif: other })),
    ];
    for (const a of answers) expect(JSON.stringify(a)).toBe(JSON.stringify(NOT_RECOGNISED));
  });

  it("a NIF that cannot be anyone's is NIF_INVALID alone, telling nothing of the card", () => {
    for (const ropo of [CARDS.advisor.ropo, CARDS.advisorSuspended.ropo, 'ES-99999999']) {
      expect(on(advisor({ ropo, nif: '67890123A' }))).toEqual([
        { code: 'NIF_INVALID', path: 'body.advisor.nif', message: '67890123A is not a valid NIF/NIE (control letter)' },
      ]);
    }
  });

  describe("justification 5, an advisor's recommendation", () => {
    const tj = (...ids: string[]) => ids.map((id) => ({ type: 'TypeJustification' as const, id, name: '' }));

    it('is JUSTIFICACION_ACTUACION code 5 in the official catalogue', () => {
      expect(ADVISOR_RECOMMENDATION).toBe('5');
      expect(testSiexCodes().name('JUSTIFICACION_ACTUACION', ADVISOR_RECOMMENDATION)).toBe('Recomendación de asesor');
    });

    it('needs an advisor (422, at the justification); other justifications do not', () => {
      const { violations } = check(req({ tj: tj('1', '5') }));
      expect(violations).toEqual([
        {
          code: 'ADVISOR_REQUIRED',
          path: 'body.tj[1]',
          message: "justification 5 is an advisor's recommendation: the record must name the advisor (advisor.ropo)",
        },
      ]);
      expect(statusOf(violations)).toBe(422);
      expect(codes(req({ tj: tj('1', '2', '3', '4', '6') }))).toEqual([]);
      expect(codes(req({ tj: tj('5'), advisor: byNumber(CARDS.advisor) }))).toEqual([]);
    });

    it('with an advisor not recognised, is reported once, as that', () => {
      expect(codes(req({ tj: tj('5'), advisor: byNumber(CARDS.cualificado) }))).toEqual(['ADVISOR_NOT_RECOGNISED']);
    });
  });
});

describe('locations', () => {
  it('lists every unknown idcp with its position; the known ones are still checked', () => {
    const { violations, resolution } = check(req({ idcp: ['101', '999', '102', '4242'] }));
    expect(violations).toEqual([
      { code: 'IDCP_NOT_FOUND', path: 'body.idcp[1]', message: expect.stringContaining('999') },
      { code: 'IDCP_NOT_FOUND', path: 'body.idcp[3]', message: expect.stringContaining('4242') },
    ]);
    expect(resolution.entries.map((e) => e.idcp)).toEqual([101, 102]);
    expect(statusOf(violations)).toBe(404);
  });
});

describe('time window (now = 15-05-2026 12:00 Madrid)', () => {
  const at = (date: string, o: ContextOptions = {}) => codes({ ...o, request: { dateApplication: date } });

  it('now passes; up to the documented clock skew ahead passes; further ahead is in the future', () => {
    expect(CLOCK_SKEW_SECONDS).toBe(120);
    expect(at('15-05-2026 12:00:00')).toEqual([]);
    expect(at('15-05-2026 12:02:00')).toEqual([]);
    expect(at('15-05-2026 12:02:01')).toEqual(['DATE_IN_FUTURE']);
    expect(at('16-05-2026 12:00:00')).toEqual(['DATE_IN_FUTURE']);
  });

  it("exactly 7 days ago passes, 7 days and one minute fails, naming the window; a fertilization's month is not theirs", () => {
    expect(at('08-05-2026 12:00:00')).toEqual([]);
    expect(at('08-05-2026 11:59:00')).toEqual(['DATE_TOO_OLD']);
    expect(at('01-04-2026 12:00:00')).toEqual(['DATE_TOO_OLD']);
    expect(at('15-04-2026 12:00:00')).toEqual(['DATE_TOO_OLD']);
    const [v] = check(req({ dateApplication: '08-05-2026 11:59:00' })).violations;
    expect(v?.message).toBe('applications may be registered at most 7 days after they took place');
  });

  it('the window is configurable (MAX_BACKDATE_DAYS)', () => {
    expect(at('12-05-2026 12:00:00', { maxBackdateDays: 3 })).toEqual([]);
    expect(at('12-05-2026 11:59:00', { maxBackdateDays: 3 })).toEqual(['DATE_TOO_OLD']);
    expect(at('01-05-2026 12:00:00', { maxBackdateDays: 14 })).toEqual([]);
    expect(at('01-05-2026 11:59:00', { maxBackdateDays: 14 })).toEqual(['DATE_TOO_OLD']);
  });

  it('counts calendar days across the start of summer time (29-03-2026): 7 days back is 167 hours', () => {
    const now = '01-04-2026 10:00:00';
    expect(at('25-03-2026 10:00:00', { now })).toEqual([]);
    expect(at('25-03-2026 09:59:00', { now })).toEqual(['DATE_TOO_OLD']);
    // an application during the repeated/skipped hours' neighbours is still judged on wall-clock days
    expect(at('29-03-2026 03:00:00', { now })).toEqual([]);
  });

  it('counts calendar days across the end of summer time (25-10-2026): 7 days back is 169 hours', () => {
    // October is outside the vine months of MICROTHIOL: use the olive enclosure, whose use has none.
    const o = (date: string) =>
      codes({ request: { dateApplication: date, idcp: [OLIVE] }, now: '01-11-2026 10:00:00' });
    expect(o('25-10-2026 10:00:00')).toEqual([]);
    expect(o('25-10-2026 09:59:00')).toEqual(['DATE_TOO_OLD']);
  });
});

describe("campaign: the application date is in the farm's campaign year", () => {
  const onFarmOf = (year: number, date: string, now: string) =>
    check({
      request: { dateApplication: date, idcp: [OLIVE] },
      now,
      farm: { ...farmIndexDoc(), meta: { ...farmIndexDoc().meta, year } },
    }).violations;

  it('a treatment dated in the campaign passes, on its first and last days (Madrid time)', () => {
    expect(onFarmOf(2026, '01-01-2026 00:00:00', '02-01-2026 10:00:00')).toEqual([]);
    expect(onFarmOf(2026, '31-12-2026 23:59:59', '01-01-2027 10:00:00')).toEqual([]);
  });

  it("a treatment dated today on last year's farm is 422 OUTSIDE_CAMPAIGN, naming both years", () => {
    expect(onFarmOf(2025, '14-05-2026 10:00:00', '15-05-2026 12:00:00')).toEqual([
      {
        code: 'OUTSIDE_CAMPAIGN',
        path: 'body.dateApplication',
        message: expect.stringMatching(
          /in 2026, but this agrifarmId is the 2025 campaign; look the farm up with year=2026/,
        ),
      },
    ]);
    expect(statusOf(onFarmOf(2025, '14-05-2026 10:00:00', '15-05-2026 12:00:00'))).toBe(422);
  });

  it("New Year is Madrid's: 31-12 23:30 Madrid (22:30 UTC) is the old campaign, 01-01 00:30 Madrid the new one", () => {
    expect(onFarmOf(2027, '31-12-2026 23:30:00', '01-01-2027 10:00:00').map((v) => v.code)).toEqual([
      'OUTSIDE_CAMPAIGN',
    ]);
    expect(onFarmOf(2026, '01-01-2027 00:30:00', '01-01-2027 10:00:00').map((v) => v.code)).toEqual([
      'OUTSIDE_CAMPAIGN',
    ]);
    expect(onFarmOf(2027, '01-01-2027 00:30:00', '01-01-2027 10:00:00')).toEqual([]);
  });

  it('is reported together with the other time rules', () => {
    expect(onFarmOf(2025, '01-04-2026 10:00:00', '15-05-2026 12:00:00').map((v) => v.code)).toEqual([
      'DATE_TOO_OLD',
      'OUTSIDE_CAMPAIGN',
    ]);
  });
});

describe('history: minimum interval and maximum applications, counting what is stored', () => {
  const vine101 = (times: string[], date: string, o: ContextOptions = {}) =>
    codes({ ...o, request: { ...o.request, dateApplication: date }, history: { 101: times } });

  it('counts Madrid calendar days, whatever the hours: 7 days apart passes, 6 fails (MICROTHIOL on vine: 7 days)', () => {
    expect(vine101(['07-05-2026 23:59:00'], '14-05-2026 00:00:00')).toEqual([]);
    expect(vine101(['07-05-2026 00:00:00'], '14-05-2026 23:59:59')).toEqual([]);
    expect(vine101(['08-05-2026 00:00:00'], '14-05-2026 23:59:59')).toEqual(['MIN_INTERVAL']);
    expect(vine101(['14-05-2026 00:00:00'], '14-05-2026 23:59:59')).toEqual(['MIN_INTERVAL']);
  });

  it('a 3-day interval from 16-11 20:00 to 19-11 08:00 is kept: 3 calendar days, though only 60 hours', () => {
    const base = poltigliaUnlimited().uses[0];
    const product = poltigliaUnlimited({ uses: [{ ...base, minIntervalDays: 3 }] });
    const o = (prior: string, date: string) =>
      codes({
        request: {
          subtype: { type: 'TypePhytosanitary', name: 'POLTIGLIA 20 WP', code: 'ES-19616' },
          dose: 0.6,
          dateApplication: date,
        },
        products: [product],
        history: { 101: [prior] },
        now: '20-11-2026 12:00:00',
      });
    expect(o('16-11-2026 20:00:00', '19-11-2026 08:00:00')).toEqual([]);
    expect(o('17-11-2026 00:00:00', '19-11-2026 23:59:00')).toEqual(['MIN_INTERVAL']);
  });

  it('the interval is in calendar days across both summer-time changes (the missing and the repeated hour)', () => {
    // 25-03 10:00 CET to 01-04 09:59 CEST is less than 168 hours, and 7 calendar days
    expect(vine101(['25-03-2026 10:00:00'], '01-04-2026 09:59:00', { now: '01-04-2026 12:00:00' })).toEqual([]);
    expect(vine101(['26-03-2026 00:00:00'], '01-04-2026 23:59:00', { now: '02-04-2026 12:00:00' })).toEqual([
      'MIN_INTERVAL',
    ]);
    // MICROTHIOL on olive (10 days, no months): 19-10 23:00 CEST to 29-10 00:30 CET is more than 240 hours, and 10
    // calendar days; 20-10 to 29-10 is only 9
    const olive = (prior: string, date: string, now: string) =>
      codes({ request: { dateApplication: date, idcp: [OLIVE] }, history: { 201: [prior] }, now });
    expect(olive('19-10-2026 23:00:00', '29-10-2026 00:30:00', '29-10-2026 12:00:00')).toEqual([]);
    expect(olive('20-10-2026 00:00:00', '29-10-2026 23:30:00', '30-10-2026 12:00:00')).toEqual(['MIN_INTERVAL']);
  });

  it('a backdated record must also keep the interval with a LATER stored application', () => {
    expect(vine101(['14-05-2026 09:00:00'], '08-05-2026 12:00:00')).toEqual(['MIN_INTERVAL']);
    expect(vine101(['15-05-2026 09:00:00'], '08-05-2026 12:00:00')).toEqual([]);
  });

  it('reaches across New Year: an application on 24-12 holds one on 02-01 of the next campaign', () => {
    // MICROTHIOL on olive: 10 days apart, no authorized months
    const olive = (prior: string) =>
      codes({
        request: { dateApplication: '02-01-2027 10:00:00', idcp: [OLIVE] },
        history: { 201: [prior] },
        now: '02-01-2027 12:00:00',
      });
    expect(olive('24-12-2026 10:00:00')).toEqual(['MIN_INTERVAL']);
    expect(olive('23-12-2026 10:00:00')).toEqual([]);
  });

  it("counts applications per campaign: last campaign's do not use up this one's maximum", () => {
    const olive = (times: string[], date: string) =>
      codes({ request: { idcp: [OLIVE], dateApplication: date }, history: { 201: times }, now: date });
    const lastYear = ['01-06-2025 10:00:00', '01-07-2025 10:00:00', '01-08-2025 10:00:00'];
    expect(olive(lastYear, '14-05-2026 10:00:00')).toEqual([]);
    expect(olive([...lastYear, '01-04-2026 10:00:00', '15-04-2026 10:00:00'], '14-05-2026 10:00:00')).toEqual([]);
    expect(
      olive([...lastYear, '01-04-2026 10:00:00', '15-04-2026 10:00:00', '01-05-2026 10:00:00'], '14-05-2026 10:00:00'),
    ).toEqual(['MAX_APPLICATIONS']);
  });

  it('names the enclosure and the day of the clashing application', () => {
    const { violations } = check({ request: { idcp: ['102', '101'] }, history: { 101: ['10-05-2026 10:00:00'] } });
    expect(violations).toEqual([
      {
        code: 'MIN_INTERVAL',
        path: 'body.idcp[1]',
        message: expect.stringMatching(/enclosure 46-213-0-0-12-45-1 \(idcp 101\) had ES-11179 on 10-05-2026;/),
      },
    ]);
  });

  it('only the history of the location concerned counts', () => {
    expect(codes({ request: { idcp: ['102'] }, history: { 101: ['14-05-2026 09:00:00'] } })).toEqual([]);
  });

  it('the Nth application passes, the N+1th fails (MICROTHIOL on olive: 3 per campaign, 10 days apart)', () => {
    const olive = (times: string[]) => codes({ request: { idcp: [OLIVE] }, history: { 201: times } });
    expect(olive(['15-02-2026 10:00:00', '15-03-2026 10:00:00'])).toEqual([]);
    expect(olive(['15-02-2026 10:00:00', '15-03-2026 10:00:00', '15-04-2026 10:00:00'])).toEqual(['MAX_APPLICATIONS']);
  });

  it('reports both limits on one location together', () => {
    const times = ['01-04-2026 10:00:00', '11-04-2026 10:00:00', '11-05-2026 10:00:00'];
    expect(codes({ request: { idcp: [OLIVE] }, history: { 201: times } })).toEqual([
      'MAX_APPLICATIONS',
      'MIN_INTERVAL',
    ]);
  });

  it('when two uses authorize the application, the most permissive limits apply', () => {
    const base = poltigliaUnlimited().uses[0];
    const product = poltigliaUnlimited({
      uses: [
        { ...base, maxApplications: 1, minIntervalDays: 20 },
        { ...base, maxApplications: 3, minIntervalDays: 5 },
      ],
    });
    const o = (times: string[]) =>
      codes({
        request: { subtype: { type: 'TypePhytosanitary', name: 'POLTIGLIA 20 WP', code: 'ES-19616' }, dose: 0.6 },
        products: [product],
        history: { 101: times },
      });
    expect(o(['01-05-2026 10:00:00', '09-05-2026 10:00:00'])).toEqual([]);
    expect(o(['01-05-2026 10:00:00', '10-05-2026 10:00:00', '02-05-2026 10:00:00'])).toEqual([
      'MAX_APPLICATIONS',
      'MIN_INTERVAL',
    ]);
  });

  it('a product without limits has no count nor interval', () => {
    const times = Array.from({ length: 30 }, (_, i) => `${String(i + 1).padStart(2, '0')}-04-2026 10:00:00`).concat([
      '14-05-2026 10:00:00',
    ]);
    expect(
      codes({
        request: { subtype: { type: 'TypePhytosanitary', name: 'POLTIGLIA 20 WP', code: 'ES-19616' }, dose: 0.61 },
        history: { 101: times },
      }),
    ).toEqual([]);
  });
});

describe('SIEX codes of the optional fields', () => {
  it('must exist in the catalogue and be in force on the application date', () => {
    const { violations } = check(
      req({
        infection: { type: 'TypeInfection', kind: 'enfermedad', id: '9999', name: '' },
        tj: [
          { type: 'TypeJustification', id: '1', name: '' },
          { type: 'TypeJustification', id: '77', name: '' },
        ],
        efficacy: { type: 'TypeEfficacy', id: '9', name: '', detail: '' },
        // each unit with its amount, as the API takes them (a treatment has no unit without its amount)
        dt: '2',
        mdt: { type: 'Measure', name: 'kg', symbol: 'kg', code: 5 },
        st: '1',
        mst: { type: 'Measure', name: 'x', symbol: 'x', code: 600 },
      }),
    );
    expect(violations.map((v) => [v.code, v.path])).toEqual([
      ['UNKNOWN_SIEX_CODE', 'body.infection.id'],
      ['UNKNOWN_SIEX_CODE', 'body.tj[1].id'],
      ['UNKNOWN_SIEX_CODE', 'body.efficacy.id'],
      ['UNKNOWN_SIEX_CODE', 'body.mst.code'],
      // the infection is also checked against the product's uses
      ['PEST_NOT_AUTHORIZED', 'body.infection'],
    ]);
  });

  it('a withdrawn code is valid before its withdrawal day (efficacy 9, withdrawn 01-01-2026)', () => {
    const efficacy = { type: 'TypeEfficacy' as const, id: '9', name: '', detail: '' };
    expect(
      codes({
        request: { efficacy, idcp: [OLIVE], dateApplication: '31-12-2025 10:00:00' },
        now: '31-12-2025 12:00:00',
      }),
    ).toEqual([]);
    expect(
      codes({
        request: { efficacy, idcp: [OLIVE], dateApplication: '01-01-2026 10:00:00' },
        now: '01-01-2026 12:00:00',
      }),
    ).toEqual(['UNKNOWN_SIEX_CODE']);
  });
});

describe('finding 4: the treated area (st in mst, surface) is above 0 and no more than the locations', () => {
  const ha = { type: 'Measure' as const, name: 'Hectáreas', symbol: 'ha', code: 2 };
  const m2 = { type: 'Measure' as const, name: 'Metros cuadrados', symbol: 'm2', code: 1 };
  const area = (r: Partial<PhytoRequest>) => check(req({ idcp: [OLIVE], ...r })).violations;

  it('refuses surface 50 on the 4.12 ha olive enclosure, and 0 (both used to be sent as they were)', () => {
    expect(area({ surface: '50' })).toEqual([
      {
        code: 'TREATED_AREA_INVALID',
        path: 'body.surface',
        message: "50 ha is more than the 4.12 ha of the record's locations (each SIGPAC enclosure counted once)",
      },
    ]);
    expect(area({ surface: '0' }).map((v) => [v.code, v.path])).toEqual([['TREATED_AREA_INVALID', 'body.surface']]);
    expect(area({ surface: '4.12' })).toEqual([]);
    expect(area({ surface: '4.1201' }).map((v) => v.code)).toEqual(['TREATED_AREA_INVALID']);
  });

  it('reads st in ha or m2, and refuses another unit for it', () => {
    expect(area({ st: '4.12', mst: ha })).toEqual([]);
    expect(area({ st: '41200', mst: m2 })).toEqual([]);
    expect(area({ st: '41201', mst: m2 }).map((v) => [v.code, v.path])).toEqual([['TREATED_AREA_INVALID', 'body.st']]);
    expect(area({ st: '0.0', mst: ha }).map((v) => [v.code, v.path])).toEqual([['TREATED_AREA_INVALID', 'body.st']]);
    const kg = { type: 'Measure' as const, name: 'Kilogramos', symbol: 'kg', code: 5 };
    expect(area({ st: '2', mst: kg }).map((v) => [v.code, v.path])).toEqual([
      ['TREATED_AREA_INVALID', 'body.mst.code'],
    ]);
    // a unit SIEX does not have is reported once, as such
    expect(area({ st: '2', mst: { ...kg, code: 600 } }).map((v) => [v.code, v.path])).toEqual([
      ['UNKNOWN_SIEX_CODE', 'body.mst.code'],
    ]);
    // st and surface are one area: they must agree
    expect(area({ st: '20000', mst: m2, surface: '2' })).toEqual([]);
    expect(area({ st: '2', mst: ha, surface: '3' }).map((v) => v.path)).toEqual(['body.surface']);
  });

  it('counts an enclosure once when two of its crops are treated together', () => {
    const doc = farmIndexDoc();
    doc.idcps.push({ ...doc.idcps[3], idcp: 202, crop: 0 });
    const o = (surface: string) =>
      codes({ request: { idcp: [OLIVE, '202'], surface, dose: 0.5 }, farm: doc }).filter(
        (c) => c === 'TREATED_AREA_INVALID',
      );
    expect(o('4.12')).toEqual([]);
    expect(o('8.24')).toEqual(['TREATED_AREA_INVALID']);
  });
});

describe('codes of the machines, the phenological stage and the units of the amount and area', () => {
  const machine = (id: string) => ({
    type: 'Machine' as const,
    id,
    name: '',
    roma: '',
    inspection: '10-03-2025',
    ref: '',
  });

  it('findings 8 and 12: a UNE machine type and a phenological stage must be codes of their SIEX catalogues', () => {
    expect(check(req({ machine: [machine('060303021'), machine('99999')] })).violations).toEqual([
      {
        code: 'UNKNOWN_SIEX_CODE',
        path: 'body.machine[1].id',
        message: '99999 is not a code of the SIEX catalogue TIPO_MAQUINA_UNE in force on that date',
      },
    ]);
    expect(codes(req({ phenology: { type: 'TypePhenology', id: '7', name: '' } }))).toEqual([]);
    expect(
      check(req({ phenology: { type: 'TypePhenology', id: '70', name: '' } })).violations.map((v) => v.path),
    ).toEqual(['body.phenology.id']);
  });

  it('writes the units of dt and st with their own symbols', () => {
    const litres = { type: 'Measure' as const, name: 'Litros', symbol: 'L', code: 4 };
    expect(codes(req({ dt: '15', mdt: litres }))).toEqual([]);
    expect(check(req({ dt: '15', mdt: { ...litres, symbol: 'kg' } })).violations).toEqual([
      { code: 'MEASURE_MISMATCH', path: 'body.mdt.symbol', message: 'unit code 4 is L, not kg' },
    ]);
  });
});

describe('every violation reported together, and the status they earn', () => {
  const sixRules: ContextOptions = {
    request: {
      dateApplication: '01-05-2026 10:00:00', // DATE_TOO_OLD
      subtype: { type: 'TypePhytosanitary', name: 'FAMOLINS 80%', code: 'ES-19534' },
      dose: 40, // DOSE_ABOVE_MAX
      measure: UNITS.kgHa,
      idcp: ['101', '999'], // IDCP_NOT_FOUND
      applicator: { user: { type: 'UserMetadata', nif: CARDS.suspended.nif, ropo: CARDS.suspended.ropo } }, // ROPO_SUSPENDED
      advisor: { type: 'UserMetadata', ropo: CARDS.advisor.ropo, nif: '67890123A' }, // NIF_INVALID
      efficacy: { type: 'TypeEfficacy', id: '77', name: '', detail: '' }, // UNKNOWN_SIEX_CODE
    },
  };

  it('one request breaking 6 rules lists 6 codes', () => {
    const { violations } = check(sixRules);
    expect(violations.map((v) => v.code).sort()).toEqual(
      ['DATE_TOO_OLD', 'DOSE_ABOVE_MAX', 'IDCP_NOT_FOUND', 'NIF_INVALID', 'ROPO_SUSPENDED', 'UNKNOWN_SIEX_CODE'].sort(),
    );
    expect(new Set(violations.map((v) => v.path)).size).toBeGreaterThanOrEqual(5);
  });

  it('404 if any idcp is unknown, else 422 if any product/dose/crop/time rule fails, else 400', () => {
    const status = (o: ContextOptions) => statusOf(check(o).violations);
    expect(status(sixRules)).toBe(404);
    expect(status({ request: { ...sixRules.request, idcp: ['101'] } })).toBe(422);
    expect(
      status({
        request: {
          ...sixRules.request,
          idcp: ['101'],
          dateApplication: '14-05-2026 10:00:00',
          dose: 25,
          efficacy: undefined,
        },
      }),
    ).toBe(400);
    // only one 404-class problem among applicator problems is still 404
    expect(
      status({
        request: { idcp: ['999'], applicator: { user: { type: 'UserMetadata', nif: 'nope', ropo: 'ES-99999999' } } },
      }),
    ).toBe(404);
  });

  it("the status ranks are the spec's: ROPO and format problems 400, product/dose/crop/time 422, locations 404", () => {
    for (const c of [
      'NIF_INVALID',
      'APPLICATOR_NOT_RECOGNISED',
      'ROPO_SUSPENDED',
      'ROPO_EXPIRED',
      'ROPO_LEVEL_INSUFFICIENT',
      'ADVISOR_NOT_RECOGNISED',
      'ADVISOR_NOT_IN_FORCE',
      'ADVISOR_NOT_REGISTERED',
      'MEASURE_MISMATCH',
      'INVALID_DATE',
    ] as const) {
      expect([c, HTTP_STATUS[c]]).toEqual([c, 400]);
    }
    for (const c of [
      'PRODUCT_NOT_FOUND',
      'PRODUCT_NOT_IN_FORCE',
      'PRODUCT_NOT_FOR_CROP',
      'PEST_NOT_AUTHORIZED',
      'DOSE_ABOVE_MAX',
      'DOSE_BELOW_MIN',
      'DOSE_OUT_OF_RANGE',
      'DOSE_UNIT_INCOMPATIBLE',
      'OUTSIDE_AUTHORIZED_PERIOD',
      'MIN_INTERVAL',
      'MAX_APPLICATIONS',
      'DATE_IN_FUTURE',
      'DATE_TOO_OLD',
      'UNKNOWN_SIEX_CODE',
      'ADVISOR_REQUIRED',
    ] satisfies ErrorCode[]) {
      expect([c, HTTP_STATUS[c]]).toEqual([c, 422]);
    }
    expect(HTTP_STATUS.IDCP_NOT_FOUND).toBe(404);
  });

  it('the default request of these tests is lawful, so each test above isolates its one rule', () => {
    expect(check({ request: phytoRequest() }).violations).toEqual([]);
    expect(codes(famolinsDose(25))).toEqual([]);
    expect(topik().uses).toHaveLength(1);
  });
});
