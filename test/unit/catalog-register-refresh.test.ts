import { Product } from '../../shared/catalog/product';
import { endProduct, planRefresh } from '../../shared/catalog/register/refresh';

const product = (code: string, extra: Partial<Product> = {}): Product => ({
  code,
  name: code,
  type: { id: 1, name: 'Producto fitosanitario registrado' },
  holder: { name: 'X', nif: '' },
  substance: { name: 'AZUFRE 80%' },
  registered: '01-01-2000',
  expires: '31-12-2027',
  lastUse: '',
  requiredLevel: 'basico',
  uses: [
    {
      cropTypeIds: ['102'],
      pest: { code: 148, kind: 'enfermedad', name: 'Oídio de la vid, Erysiphe necator' },
      doseMin: 0.25,
      doseMax: 0.8,
      unit: { code: 14, symbol: '%' },
    },
  ],
  ...extra,
});

describe('refreshing from a newer register export', () => {
  const today = '20-10-2026';

  it('ends a product on the withdrawal day, keeping a grace period only up to that day', () => {
    expect(endProduct(product('ES-00001'), today)).toMatchObject({ expires: today, lastUse: '', withdrawn: today });
    expect(endProduct(product('ES-00001', { expires: '01-06-2026', lastUse: '01-12-2026' }), today)).toMatchObject({
      expires: '01-06-2026',
      lastUse: today,
      withdrawn: today,
    });
    expect(endProduct(product('ES-00001', { expires: '01-06-2026', lastUse: '01-09-2026' }), today)).toMatchObject({
      expires: '01-06-2026',
      lastUse: '01-09-2026',
    });
    // Everything but the dates stays: uses, names, and so what validation and stored records rely on.
    expect(endProduct(product('ES-00001'), today).uses).toEqual(product('ES-00001').uses);
  });

  it('withdraws stored products missing from the file, but not those the file holds and could not map', () => {
    const stored = new Map([
      ['ES-00001', product('ES-00001')],
      ['ES-00002', product('ES-00002')],
      ['ES-00003', product('ES-00003')],
    ]);
    const mapped = new Map([['ES-00001', product('ES-00001', { expires: '31-12-2028' })]]);
    const plan = planRefresh(stored, mapped, new Set(['ES-00001', 'ES-00003']), today);
    expect(plan.missing).toEqual(['ES-00002']);
    expect(plan.write.map((p) => p.code)).toEqual(['ES-00001', 'ES-00002']);
    expect(plan.write[1]).toMatchObject({ code: 'ES-00002', expires: today, withdrawn: today });
    expect(plan.storedInForce).toBe(3);
  });

  it('reports a product cancelled now and one in force again, and leaves alone one withdrawn before', () => {
    const stored = new Map([
      ['ES-00001', product('ES-00001')],
      ['ES-00002', product('ES-00002', { withdrawn: '01-01-2026', expires: '01-01-2026' })],
      ['ES-00003', product('ES-00003', { withdrawn: '01-01-2026', expires: '01-01-2026' })],
    ]);
    const mapped = new Map([
      ['ES-00001', product('ES-00001', { withdrawn: '15-10-2026', expires: '15-10-2026' })],
      ['ES-00002', product('ES-00002')],
    ]);
    const plan = planRefresh(stored, mapped, new Set(mapped.keys()), today);
    expect(plan).toMatchObject({ cancelled: ['ES-00001'], reinstated: ['ES-00002'], missing: [], storedInForce: 1 });
    expect(plan.write.map((p) => p.code)).toEqual(['ES-00001', 'ES-00002']);
  });
});
