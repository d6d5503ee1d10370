import { Product, productSchema } from '../../shared/catalog/product';
import { CropResolver, loadCropGroups } from '../../shared/catalog/crop-groups';
import {
  MapContext,
  mapRegisterProduct,
  mergeVariants,
  UNKNOWN_REGISTRATION_DAY,
} from '../../shared/catalog/register/map-product';
import {
  azufreCancelled,
  bordonex,
  cabrio,
  checkmate,
  etifix,
  famolins,
  flypack,
  microthiol,
  officialCodes,
  penshar,
  RawProductInput,
  registerProduct,
  topik,
  use,
} from './catalog-fixtures';

describe('mapping a register product to the back-office product', () => {
  const codes = officialCodes();
  const ctx: MapContext = { codes, crops: new CropResolver(loadCropGroups(), codes), today: '20-10-2026' };
  const map = (p: RawProductInput, c: MapContext = ctx) => mapRegisterProduct(registerProduct(p), c);
  const product = (p: RawProductInput): Product => {
    const result = map(p);
    expect(result.rejected).toBeUndefined();
    return result.product!;
  };

  it('maps the product data: code from the legacy number, holder, substance, dates DD-MM-YYYY', () => {
    const p = product(microthiol());
    expect(p).toMatchObject({
      code: 'ES-11179',
      name: 'MICROTHIOL SPECIAL DISPERSS',
      type: { id: 1, name: 'Producto fitosanitario registrado' },
      holder: { name: 'UPL IBERIA, S.A.', nif: '' },
      substance: { name: 'AZUFRE 80%' },
      registered: '10-05-1976',
      expires: '31-07-2027',
      lastUse: '',
      requiredLevel: 'basico',
    });
    expect(p.withdrawn).toBeUndefined();
    expect(productSchema.safeParse(p).success).toBe(true);
  });

  it('turns "NO PROCEDE" into safety days NP (none applies, not 0), and a range of applications into its upper bound', () => {
    const p = product(microthiol());
    const vine = p.uses.find((u) => u.pest.code === 148)!;
    expect(vine).toEqual({
      cropTypeIds: ['102', '120', '333', '348', '494'],
      pest: { code: 148, kind: 'enfermedad', name: 'Oídio de la vid, Erysiphe necator' },
      doseMin: 0.25,
      doseMax: 0.8,
      unit: { code: 14, symbol: '%' },
      maxApplications: 8,
      safetyDays: 'NP',
    });
    const olive = p.uses.find((u) => u.pest.name.startsWith('Negrilla'))!;
    expect(olive).toMatchObject({
      maxApplications: 3,
      minIntervalDays: 7,
      safetyDays: 'NP',
      cropTypeIds: expect.arrayContaining(['101']),
    });
  });

  it('maps crop groups to their SIEX crops', () => {
    const p = product(microthiol());
    const pome = p.uses.find((u) => u.pest.name.startsWith('Oídio del manzano'))!;
    expect(pome.cropTypeIds).toEqual(expect.arrayContaining(['108', '109', '211', '214']));
    const cereals = p.uses.find((u) => u.pest.name.startsWith('Oídio de los cereales'))!;
    expect(cereals.cropTypeIds).toEqual(expect.arrayContaining(['1', '3', '5', '6', '8', '13']));
    expect(cereals.pest).toMatchObject({ kind: 'enfermedad', code: 141 });
  });

  it('merges rows that differ only by what the product shape does not carry, and reports unmapped crops', () => {
    const result = map(microthiol());
    // Seven register rows: two identical eriophyid rows on the vine merge; "Judía forrajera" maps to no SIEX crop.
    expect(result.usesIn).toBe(7);
    expect(result.product!.uses).toHaveLength(5);
    expect(result.issues).toContainEqual({ kind: 'unmapped-crop', value: 'Judía forrajera' });
  });

  it('maps a growth regulator with g/Hl, and takes the longest of two safety periods', () => {
    const p = product(etifix());
    expect(p.uses.find((u) => u.pest.code === 40)).toMatchObject({
      cropTypeIds: ['109'],
      pest: { kind: 'regulador', code: 40, name: 'Aclareo frutos' },
      doseMin: 100,
      doseMax: 150,
      unit: { code: 65, symbol: 'g/hL' },
      maxApplications: 1,
      safetyDays: 90,
    });
    expect(p.substance.name).toBe('1-NAFTILACÉTICO 1%');
  });

  it('maps ES- numbers, ISO registration dates, Kg/ha, doses from 0 and single doses', () => {
    const p = product(cabrio());
    expect(p.code).toBe('ES-00065');
    expect(p.registered).toBe('15-06-2011');
    const maize = p.uses.find((u) => u.pest.name.startsWith('Roya común del maíz'))!;
    expect(maize).toMatchObject({ doseMin: 0, doseMax: 1, unit: { code: 17, symbol: 'kg/ha' }, safetyDays: 'NP' });
    const citrus = p.uses.find((u) => u.pest.name === 'Alternaria spp.')!;
    // Dosis_Max 0 in the register means a single dose: Dosis_Min.
    expect(citrus).toMatchObject({ doseMin: 1.125, doseMax: 1.125, safetyDays: 14 });
    expect(citrus.cropTypeIds).toContain('206');
    const olive = p.uses.find((u) => u.pest.name.startsWith('Repilo'))!;
    expect(olive).toMatchObject({ safetyDays: 105, cropTypeIds: expect.arrayContaining(['101']) });
  });

  it('keeps a use whose pest SIEX does not know with code 0, leaves out one whose unit no SIEX unit measures, reports both', () => {
    const result = map(penshar());
    const p = result.product!;
    // ml/planta: SIEX has no volume per plant, so that use cannot be stored: never a unit with code 0
    expect(p.uses.find((u) => u.cropTypeIds.includes('83'))).toBeUndefined();
    expect(p.uses.every((u) => u.unit.code > 0)).toBe(true);
    const nuts = p.uses.find((u) => u.cropTypeIds.includes('104'))!;
    // An unknown pest takes the kind most of the product's uses have: a herbicide's are weeds.
    expect(nuts.pest).toEqual({ code: 0, kind: 'mala_hierba', name: 'Malas hierbas anuales de los frutales' });
    // l/hl is a percentage of the spray: 0.3-0.5 l/hl is 0.3-0.5 %.
    expect(nuts).toMatchObject({ doseMin: 0.3, doseMax: 0.5, unit: { code: 14, symbol: '%' } });
    expect(result.issues).toEqual(
      expect.arrayContaining([
        { kind: 'unknown-unit', value: 'ml/planta' },
        { kind: 'unresolved-pest', value: 'Malas hierbas anuales de los frutales' },
      ]),
    );
    expect(p.uses.find((u) => u.cropTypeIds.includes('155'))).toMatchObject({
      pest: { kind: 'mala_hierba', code: 3 },
      safetyDays: 75,
    });
    expect(productSchema.safeParse(p).success).toBe(true);
  });

  it('finding 1: converts register units SIEX has no code for into a coded unit of the same kind (TOPIK cc/ha to L/ha)', () => {
    const p = product(topik());
    expect(p.uses.map((u) => [u.pest.code, u.doseMin, u.doseMax, u.unit])).toEqual(
      expect.arrayContaining([
        [141, 0.17, 0.2, { code: 18, symbol: 'L/ha' }],
        [139, 0.2, 0.25, { code: 18, symbol: 'L/ha' }],
      ]),
    );
    expect(product(checkmate()).uses[0]).toMatchObject({ doseMin: 450, doseMax: 450, unit: { code: 22 } });
    expect(product(flypack()).uses[0]).toMatchObject({
      doseMin: 5,
      doseMax: 100,
      unit: { code: 24, symbol: 'Trampas/ha' },
    });
    expect(
      product(bordonex())
        .uses.map((u) => u.unit.code)
        .sort((a, b) => a - b),
    ).toEqual([17, 80]);
    // and no product the schema would store has a use without a SIEX unit
    expect(
      productSchema.safeParse({
        ...product(topik()),
        uses: [{ ...product(topik()).uses[0], unit: { code: 0, symbol: 'cc/ha' } }],
      }).success,
    ).toBe(false);
  });

  it('finding 2: matches a use to its pest by the register hierarchy code first, groups included, then by name', () => {
    const raw = famolins();
    // CodigoAgente is the catalogues' own dotted code: 6.1 is the group Ácaros, whatever the words say
    raw.uses[0] = { ...raw.uses[0], Agente: 'Acaros (grupo)', CodigoAgente: '6.1' };
    const byPath = map(raw);
    expect(byPath.product!.uses.find((u) => u.pest.code === 2)).toMatchObject({
      pest: { kind: 'plaga', code: 2, name: 'Acaros (grupo)' },
    });
    expect(byPath.issues.filter((i) => i.kind === 'unresolved-pest')).toEqual([]);
    // without the code, the group's name finds it too
    expect(product(famolins()).uses.find((u) => u.pest.name === 'Ácaros')?.pest).toEqual({
      kind: 'plaga',
      code: 2,
      name: 'Ácaros',
    });
  });

  it('ends a cancelled product on its cancellation day, usable until the sale deadline after it', () => {
    const result = map(azufreCancelled());
    expect(result.cancelled).toBe(true);
    expect(result.product).toMatchObject({
      code: 'ES-24138',
      expires: '01-03-2026',
      lastUse: '01-09-2026',
      withdrawn: '01-03-2026',
    });
  });

  it('finding 6: a cancelled product with no date is in force on no day, not until the import day (FONTELIS)', () => {
    const raw = { ...azufreCancelled(), cancelled: '', saleEnd: '' };
    const mapped = map(raw);
    expect(mapped.product).toMatchObject({
      registerState: 'Cancelado',
      noKnownValidDay: true,
      withdrawn: '20-10-2026',
    });
    expect(mapped.notes).toContain('Cancelado with no day it was still valid on; in force on no day');
    // the day reported as the withdrawal stays the day the first import saw it
    const previous = { ...mapped.product!, withdrawn: '13-10-2026' };
    const later = map(raw, { ...ctx, today: '27-10-2026', previous: () => previous }).product!;
    expect(later).toMatchObject({ withdrawn: '13-10-2026', noKnownValidDay: true });
  });

  it('reads each state the register uses: in force, cancelled, expired, suspended; with and without their day', () => {
    const state = (estado: string, dates: Partial<RawProductInput> = {}) => {
      const p = product({ ...cabrio(), estado, expires: '2026/09/15', saleEnd: '', cancelled: '', ...dates });
      return [p.expires, p.lastUse, p.withdrawn ?? '', p.registerState ?? '', p.noKnownValidDay ?? false];
    };
    expect(state('Vigente')).toEqual(['15-09-2026', '', '', '', false]);
    expect(state('Autorizado')).toEqual(['15-09-2026', '', '', '', false]);
    // cancelled: on its cancellation day, then through a later sale deadline; without a day, through the sale deadline
    expect(state('Cancelado', { cancelled: '2026/03/01' })).toEqual([
      '01-03-2026',
      '',
      '01-03-2026',
      'Cancelado',
      false,
    ]);
    expect(state('Cancelado', { cancelled: '2026/03/01', saleEnd: '2026/09/01' })).toEqual([
      '01-03-2026',
      '01-09-2026',
      '01-03-2026',
      'Cancelado',
      false,
    ]);
    expect(state('Cancelado', { saleEnd: '2026/06/30' })).toEqual(['30-06-2026', '', '20-10-2026', 'Cancelado', false]);
    expect(state('Cancelado')).toEqual(['15-09-2026', '', '20-10-2026', 'Cancelado', true]);
    // expired: its day is the expiry; without one, no day at all
    expect(state('Caducado')).toEqual(['15-09-2026', '', '15-09-2026', 'Caducado', false]);
    expect(state('Caducado', { expires: '' })).toEqual(['20-10-2026', '', '20-10-2026', 'Caducado', true]);
    // suspended, or any other word: not in force, like a cancellation
    expect(state('SUSPENDIDO', { cancelled: '2026/05/04' })).toEqual([
      '04-05-2026',
      '',
      '04-05-2026',
      'SUSPENDIDO',
      false,
    ]);
    expect(state('Suspendido')).toEqual(['15-09-2026', '', '20-10-2026', 'Suspendido', true]);
    expect(state('Retirado')).toEqual(['15-09-2026', '', '20-10-2026', 'Retirado', true]);
  });

  it('keeps a sale deadline after expiry as the last-use day of a product in force', () => {
    const p = product({ ...cabrio(), expires: '2026/09/15', saleEnd: '2027/03/15' });
    expect(p).toMatchObject({ expires: '15-09-2026', lastUse: '15-03-2027' });
    expect(product({ ...cabrio(), saleEnd: '2025/01/01' }).lastUse).toBe('');
  });

  it('records an unknown registration day as a sentinel, with a note', () => {
    const result = map({ ...etifix(), registered: '' });
    expect(result.product?.registered).toBe(UNKNOWN_REGISTRATION_DAY);
    expect(result.notes[0]).toContain('Fecha_Registro');
  });

  it('leaves out uses without a dose or with min above max, and says so', () => {
    const result = map({
      ...etifix(),
      uses: [
        ...etifix().uses,
        use('Peral', 'Aclareo frutos', 0, 0, 'g/Hl', '7'),
        use('Peral', 'Aclareo frutos', 300, 200, 'g/Hl', '7'),
        use('Peral', 'Aclareo frutos', 'mucho', 200, 'g/Hl', 'ver etiqueta', { Aplicaciones: 'varias' }),
      ],
    });
    expect(result.product!.uses).toHaveLength(2);
    expect(result.issues.map((i) => i.kind)).toEqual(['no-dose', 'inverted-dose', 'unread']);
  });

  it('rejects, with a reason, what cannot be stored', () => {
    expect(map({ ...cabrio(), num: 'ES-123456' }).rejected).toContain('5 significant digits');
    expect(map({ ...cabrio(), expires: '' }).rejected).toContain('Fecha_Caducidad');
    expect(map({ ...cabrio(), uses: [] }).rejected).toBe('no uses in the register');
    expect(map({ ...cabrio(), uses: [use('Césped', 'Alternaria spp.', 1, 2, 'Kg/ha', '3')] }).rejected).toContain(
      'no use',
    );
    expect(mapRegisterProduct({ USOS: [] }, ctx).rejected).toContain('DATOSPRODUCTO');
    expect(mapRegisterProduct({ DATOSPRODUCTO: {}, USOS: 'x' }, ctx).rejected).toContain('USOS');
  });

  it('accepts the loose typing of the export: numbers as text with a comma, null fields, a number as Num_Registro', () => {
    const raw = registerProduct(etifix());
    const d = raw.DATOSPRODUCTO as Record<string, unknown>;
    d.Num_Registro = 17705;
    d.Fabricante = null;
    (raw.USOS as Record<string, unknown>[])[0].Dosis_Min = '100,0';
    (raw.USOS as Record<string, unknown>[])[0].IntervaloAplicaciones = null;
    const result = mapRegisterProduct(raw, ctx);
    expect(result.product).toMatchObject({
      code: 'ES-17705',
      uses: expect.arrayContaining([expect.objectContaining({ doseMin: 100 })]),
    });
  });

  it('merges two rows of one registration number: the one in force wins, otherwise uses join and dates extend', () => {
    const inForce = product(cabrio());
    const cancelled = { ...inForce, withdrawn: '01-01-2026', expires: '01-01-2026' };
    expect(mergeVariants(cancelled, inForce)).toBe(inForce);
    const other = product({
      ...cabrio(),
      expires: '2026/10/15',
      uses: [use('Peral', 'Moteado o roña del peral, Venturia pyrina', 0.5, 0.5, 'Kg/ha', '21')],
    });
    const merged = mergeVariants(inForce, other);
    expect(merged.expires).toBe('15-10-2026');
    expect(merged.uses).toHaveLength(inForce.uses.length + 1);
  });

  it('produces the same document whatever the order of the register rows (stable content hash)', () => {
    const a = product(microthiol());
    const b = product({ ...microthiol(), uses: [...microthiol().uses].reverse() });
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });
});
