import { HTTP_STATUS } from '../../shared/app/error-codes';
import { HAND_HELD_UNE_TYPES } from '../../shared/domain/equipment';
import { checkApplication } from '../../shared/phyto/rules';
import { ContextOptions, phytoRequest, ruleContext } from '../helpers/phyto-fixtures';
import { officialCatalogues } from './catalog-fixtures';

/**
 * Issue 23, items 4 and 7: equipment as it was on the application day (RD 1702/2011 art. 6) and the spray volume
 * ceiling, each on both sides of its boundary. The default application is MICROTHIOL 0.5 % on vine idcp 101 (2.35 ha)
 * on 14-05-2026 10:00 Madrid.
 */
const machine = (o: Record<string, string> = {}) => ({
  type: 'Machine' as const,
  id: '060303021',
  name: 'Atomizador',
  roma: 'ROMA-46-7',
  inspection: '',
  ref: '',
  ...o,
});

const check = (request: ContextOptions['request']) => checkApplication(ruleContext({ request })).violations;

describe('the last inspection: not after the application, not more than 3 years before it', () => {
  it.each([
    ['14-05-2023', 'exactly 3 years before passes', []],
    ['13-05-2023', 'a day more than 3 years before fails', ['EQUIPMENT_INSPECTION_EXPIRED']],
    ['14-05-2026', 'the day of the application passes', []],
    ['15-05-2026', 'the day after the application fails', ['EQUIPMENT_INSPECTION_EXPIRED']],
    ['01-01-2012', "the audit's 2012 fails", ['EQUIPMENT_INSPECTION_EXPIRED']],
  ])('%s: %s', (inspection, _, expected) => {
    expect(check({ machine: [machine({ inspection })] }).map((v) => v.code)).toEqual(expected);
  });

  it('names the machine and the day, at the machine field, with status 422', () => {
    const [v] = check({
      machine: [
        machine({ ref: 'X', inspection: '14-05-2025' }),
        machine({ inspection: '13-05-2023', roma: 'ROMA-46-9' }),
      ],
    });
    expect(v).toEqual({
      code: 'EQUIPMENT_INSPECTION_EXPIRED',
      path: 'body.machine[1].inspection',
      message: expect.stringContaining('060303021 Atomizador (ROMA ROMA-46-9): last inspected on 13-05-2023'),
    });
    expect(v.message).toContain('14-05-2026');
    expect(HTTP_STATUS.EQUIPMENT_INSPECTION_EXPIRED).toBe(422);
  });

  it('a machine inspected in the future of the application is refused even with a recent registration', () => {
    expect(check({ machine: [machine({ inspection: '01-01-2030', registered: '01-01-2026' })] })).toEqual([
      expect.objectContaining({ code: 'EQUIPMENT_INSPECTION_EXPIRED', path: 'body.machine[0].inspection' }),
    ]);
  });
});

describe('equipment not inspected yet: passes while first registered less than 5 years before', () => {
  it.each([
    ['15-05-2021', 'less than 5 years before passes', []],
    ['14-05-2021', 'exactly 5 years before fails', ['EQUIPMENT_INSPECTION_EXPIRED']],
    ['14-05-2026', 'registered that day passes', []],
    ['15-05-2026', 'registered after the application fails', ['EQUIPMENT_INSPECTION_EXPIRED']],
  ])('%s: %s', (registered, _, expected) => {
    expect(check({ machine: [machine({ registered })] }).map((v) => v.code)).toEqual(expected);
  });

  it('a powered machine that states neither day is 422 at the machine (RD 1311/2012 Anexo III, issue 35)', () => {
    expect(check({ machine: [machine({ inspection: '14-05-2025' }), machine({ roma: 'ROMA-46-9' })] })).toEqual([
      {
        code: 'EQUIPMENT_INSPECTION_UNKNOWN',
        path: 'body.machine[1]',
        message: expect.stringContaining('060303021 Atomizador (ROMA ROMA-46-9): a powered machine states its last'),
      },
    ]);
    expect(HTTP_STATUS.EQUIPMENT_INSPECTION_UNKNOWN).toBe(422);
  });

  it('an amendment keeps the outcome of a machine its earlier version already named without days', () => {
    const undated = machine();
    const amend = (ownMachines: ReturnType<typeof machine>[]) =>
      checkApplication({
        ...ruleContext({ request: { machine: [undated] } }),
        ownMachines: ownMachines.map((m) => ({ une: m.id, name: m.name, roma: m.roma, ref: m.ref, inspection: '' })),
      }).violations.map((v) => v.code);
    expect(amend([undated])).toEqual([]);
    // Another machine, or none, in the earlier version: the rule holds.
    expect(amend([machine({ roma: 'ROMA-46-9' })])).toEqual(['EQUIPMENT_INSPECTION_UNKNOWN']);
    expect(amend([])).toEqual(['EQUIPMENT_INSPECTION_UNKNOWN']);
  });
});

describe('hand-held and backpack equipment', () => {
  it('is outside the inspections: an old inspection on a backpack passes', () => {
    for (const id of HAND_HELD_UNE_TYPES.keys())
      expect(check({ machine: [machine({ id, inspection: '01-01-2012' })] })).toEqual([]);
  });

  it('names codes of the official TIPO_MAQUINA_UNE catalogue, each with its catalogue name', () => {
    const rows = new Map((officialCatalogues().TIPO_MAQUINA_UNE ?? []).map((r) => [r.code, r.name]));
    for (const [code, name] of HAND_HELD_UNE_TYPES) expect([code, rows.get(code)]).toEqual([code, name]);
    // every applicator of plant protection products whose name says backpack or manual is in the list
    const handHeld = [...rows].filter(([code, n]) => /^0603|^063/.test(code) && /mochila|manual/i.test(n));
    expect(handHeld.map(([code]) => code).sort()).toEqual([...HAND_HELD_UNE_TYPES.keys()].sort());
  });
});

describe('the spray volume: at most 5,000 L/ha (soup over the treated area)', () => {
  it.each([
    ['11750', 'exactly 5,000 L/ha on 2.35 ha passes', []],
    ['11750.1', 'just above fails', ['SPRAY_VOLUME_ABOVE_MAX']],
    ['2350', '1,000 L/ha passes', []],
  ])('%s L: %s', (soup, _, expected) => {
    expect(check({ soup }).map((v) => v.code)).toEqual(expected);
  });

  it('uses the treated area when given: 20,000 L/ha on half a hectare is refused with the figure', () => {
    const [v] = check({ soup: '10000', surface: '0.5' });
    expect(v).toEqual({
      code: 'SPRAY_VOLUME_ABOVE_MAX',
      path: 'body.soup',
      message: '10000 L of mixture is 20000 L/ha, above the 5,000 L/ha ceiling',
    });
    expect(HTTP_STATUS.SPRAY_VOLUME_ABOVE_MAX).toBe(422);
    expect(phytoRequest().soup).toBeUndefined();
  });
});
