import { describeStanding, productStandingOn } from '../../shared/catalog/product-state';

describe('whether a product is in force on a day (shared/catalog/product-state.ts)', () => {
  const product = { registered: '14-06-2001', expires: '31-07-2027', lastUse: '' };

  it('is in force from its registration day through its last day, the last-use day when it has one', () => {
    expect(productStandingOn(product, '13-06-2001')).toEqual({
      inForce: false,
      why: 'not-registered-yet',
      registered: '14-06-2001',
    });
    expect(productStandingOn(product, '14-06-2001')).toEqual({ inForce: true, lastDay: '31-07-2027' });
    expect(productStandingOn(product, '31-07-2027').inForce).toBe(true);
    expect(productStandingOn(product, '01-08-2027')).toEqual({
      inForce: false,
      why: 'ended',
      lastDay: '31-07-2027',
      byLastUse: false,
    });
    const grace = { ...product, lastUse: '31-01-2028' };
    expect(productStandingOn(grace, '31-01-2028').inForce).toBe(true);
    expect(describeStanding(productStandingOn(grace, '01-02-2028'))).toBe(
      'is not in force: its last-use date was 31-01-2028',
    );
  });

  it('is in force on no day when the register withdrew it without any day it was still valid on', () => {
    const fontelis = { ...product, registerState: 'Cancelado', noKnownValidDay: true as const };
    for (const day of ['14-06-2001', '01-01-2020', '13-10-2026'])
      expect(productStandingOn(fontelis, day)).toEqual({
        inForce: false,
        why: 'no-known-valid-day',
        registerState: 'Cancelado',
      });
    expect(describeStanding(productStandingOn(fontelis, '13-10-2026'))).toBe(
      'is listed by the register as Cancelado with no day it was still valid on: it cannot be used on any day',
    );
  });
});
