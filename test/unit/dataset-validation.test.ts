import { readFileSync } from 'node:fs';
import path from 'node:path';
import { validateDataset } from '../../shared/backoffice/dataset-validation';
import { scopeOf } from '../../shared/catalog/product';
import { hashKey } from '../../shared/clients/keys';
import { enclosure, testClient, testFarm } from '../helpers/dataset';

const DOC = path.resolve(__dirname, '../../docs/backoffice-dataset.md');

/** The example of docs/backoffice-dataset.md, parsed from the page itself. */
function specExample(): Record<string, any> {
  const md = readFileSync(DOC, 'utf8');
  const block = /```json\n([\s\S]*?)\n```/.exec(md);
  if (!block) throw new Error('no JSON example in docs/backoffice-dataset.md');
  return JSON.parse(block[1]);
}

function validProduct(code = 'ES-11179') {
  return {
    code,
    name: 'MICROTHIOL SPECIAL DISPERSS',
    type: { id: 1, name: 'Fungicida' },
    holder: { name: 'UPL IBERIA, S.A.', nif: '' },
    substance: { name: 'AZUFRE 80% [WG] P/P' },
    registered: '14-06-2001',
    expires: '31-07-2027',
    lastUse: '',
    requiredLevel: 'basico',
    uses: [
      {
        cropTypeIds: ['102'],
        pest: { code: 148, kind: 'enfermedad', name: 'Oídio' },
        doseMin: 0.25,
        doseMax: 0.8,
        unit: { code: 14, symbol: '%' },
      },
    ],
  };
}

function validApplicator(ropo = 'ES-46000123', nif = '12345678Z') {
  return { nif, name: 'Ana Pérez', ropo, levels: ['cualificado'], validUntil: '31-12-2030', suspended: false };
}

function problemsOf(input: unknown): Record<string, string> {
  const r = validateDataset(input);
  expect(r.dataset).toBeNull();
  return Object.fromEntries(r.problems.map((p) => [p.path, p.message]));
}

describe('validateDataset', () => {
  it('accepts the example of the dataset spec, whose keys are hashed, also where clear keys are refused', () => {
    const example = specExample();
    const r = validateDataset(example, { clearKeys: false });
    expect(r.problems).toEqual([]);
    expect(r.dataset!.clients[0].previousSidKey).toMatch(/^sha256:/);
    expect(r.dataset!.farms[0].crops[0].parcels[0].sigpac[0].dimension).toBe('2.35');
  });

  it('accepts an empty dataset: every section is optional', () => {
    expect(validateDataset({})).toEqual({
      dataset: { clients: [], applicators: [], products: [], farms: [] },
      problems: [],
    });
  });

  it('applies the documented defaults', () => {
    const client = testClient('d', []) as Record<string, unknown>;
    delete client.expires;
    delete client.farms;
    const product = validProduct() as Record<string, unknown>;
    delete product.requiredLevel;
    delete product.lastUse;
    const applicator = validApplicator() as Record<string, unknown>;
    delete applicator.suspended;
    const r = validateDataset({ clients: [client], products: [product], applicators: [applicator] });
    expect(r.problems).toEqual([]);
    expect(r.dataset!.clients[0]).toMatchObject({ expires: '', farms: [] });
    expect(r.dataset!.products[0]).toMatchObject({ requiredLevel: 'basico', lastUse: '' });
    expect(r.dataset!.applicators[0].suspended).toBe(false);
  });

  it('reports every field problem of the file at once, each with its JSON path', () => {
    const farm = testFarm('46000000001') as Record<string, any>;
    farm.owner.phone = '600000000';
    farm.crops[0].parcels[1].sigpac[0].prov = '46a';
    farm.crops[1].code = '2001';
    const problems = problemsOf({
      clients: [testClient('ok', []), { ...testClient('bad', []), sidKey: 'short', colour: 'blue' }],
      applicators: [validApplicator(), { ...validApplicator('ES-46000124', '12345678A'), validUntil: '31-02-2030' }],
      products: [{ ...validProduct('ES-1'), lastUse: '2027-07-31' }],
      farms: [farm],
      extra: [],
    });
    expect(Object.keys(problems).sort()).toEqual(
      [
        '$.extra',
        '$.clients[1].sidKey',
        '$.clients[1].colour',
        '$.applicators[1].nif',
        '$.applicators[1].validUntil',
        '$.products[0].code',
        '$.products[0].lastUse',
        '$.farms[0].owner.phone',
        '$.farms[0].crops[0].parcels[1].sigpac[0].prov',
        '$.farms[0].crops[1].code',
      ].sort(),
    );
    expect(problems['$.extra']).toBe('unknown field');
    expect(problems['$.clients[1].colour']).toBe('unknown field');
    expect(problems['$.farms[0].owner.phone']).toBe('unknown field');
    expect(problems['$.clients[1].sidKey']).toMatch(/32 characters/);
    expect(problems['$.applicators[1].nif']).toMatch(/NIF/);
  });

  it.each([
    [
      'a bad NIF control letter',
      { applicators: [validApplicator('ES-46000123', '12345678A')] },
      '$.applicators[0].nif',
    ],
    ['a malformed ROPO', { applicators: [validApplicator('ES-4600012')] }, '$.applicators[0].ropo'],
    [
      'an unknown card level',
      { applicators: [{ ...validApplicator(), levels: ['experto'] }] },
      '$.applicators[0].levels[0]',
    ],
    ['no card level', { applicators: [{ ...validApplicator(), levels: [] }] }, '$.applicators[0].levels'],
    ['a short API key', { clients: [{ ...testClient('k', []), apiKey: 'x'.repeat(31) }] }, '$.clients[0].apiKey'],
    ['a bad client id', { clients: [{ ...testClient('k', []), id: 'Upper Case' }] }, '$.clients[0].id'],
    ['a bad e-mail', { clients: [{ ...testClient('k', []), email: 'nobody' }] }, '$.clients[0].email'],
    [
      'a day that does not exist',
      { clients: [{ ...testClient('k', []), expires: '29-02-2026' }] },
      '$.clients[0].expires',
    ],
    ['no uses', { products: [{ ...validProduct(), uses: [] }] }, '$.products[0].uses'],
    [
      'doseMin above doseMax',
      { products: [{ ...validProduct(), uses: [{ ...validProduct().uses[0], doseMin: 2, doseMax: 1 }] }] },
      '$.products[0].uses[0].doseMin',
    ],
    [
      'a month 13',
      { products: [{ ...validProduct(), uses: [{ ...validProduct().uses[0], months: [13] }] }] },
      '$.products[0].uses[0].months[0]',
    ],
    [
      'an unknown pest kind',
      {
        products: [
          { ...validProduct(), uses: [{ ...validProduct().uses[0], pest: { code: 1, kind: 'virus', name: 'x' } }] },
        ],
      },
      '$.products[0].uses[0].pest.kind',
    ],
    [
      'a 13-character codigoRea',
      { farms: [{ ...testFarm('R1'), codigoRea: 'ES46000000001' }] },
      '$.farms[0].codigoRea',
    ],
    [
      'a one-digit community code',
      { farms: [{ ...testFarm('R1'), community: { code: '7', name: 'Castilla y León' } }] },
      '$.farms[0].community.code',
    ],
    ['a lower-case country', { farms: [{ ...testFarm('R1'), country: 'es' }] }, '$.farms[0].country'],
    ['a REA with a slash', { farms: [testFarm('46/0001')] }, '$.farms[0].rea'],
    [
      'a dimension that is a number',
      {
        farms: [
          {
            ...testFarm('R1'),
            crops: [
              {
                ...testFarm('R1').crops[0],
                parcels: [{ name: 'P', sigpac: [{ ...enclosure(1, 1, 1), dimension: 2.5 }] }],
              },
            ],
          },
        ],
      },
      '$.farms[0].crops[0].parcels[0].sigpac[0].dimension',
    ],
    [
      'a parcel with no enclosure',
      { farms: [{ ...testFarm('R1'), crops: [{ ...testFarm('R1').crops[0], parcels: [{ name: 'P', sigpac: [] }] }] }] },
      '$.farms[0].crops[0].parcels[0].sigpac',
    ],
    [
      'a dgc of 17 digits',
      {
        farms: [
          {
            ...testFarm('R1'),
            crops: [
              {
                ...testFarm('R1').crops[0],
                parcels: [{ name: 'P', sigpac: [{ ...enclosure(1, 1, 1), dgc: '1'.repeat(17) }] }],
              },
            ],
          },
        ],
      },
      '$.farms[0].crops[0].parcels[0].sigpac[0].dgc',
    ],
    ['a year that is text', { farms: [{ ...testFarm('R1'), year: '2026' }] }, '$.farms[0].year'],
  ])('rejects %s at its path', (_, input, at) => {
    expect(Object.keys(problemsOf(input))).toContain(at);
  });

  it('reports every repeat and every date-order problem at once, at the path of each repeat', () => {
    const a = testClient('a', []);
    const b = testClient('b', []);
    const farm = testFarm('46000000001') as Record<string, any>;
    farm.crops.push({ ...structuredClone(farm.crops[0]), name: 'OTRA' }); // same typecrop + code
    farm.crops[0].parcels.push({ name: 'La Hoya', sigpac: [enclosure(99, 1, 1)] }); // parcel name repeats
    farm.crops[0].parcels[1].sigpac.push({ ...enclosure(12, 45, 1), prov: '046' }); // same enclosure as 46-...-12-45-1
    const problems = problemsOf({
      clients: [
        a,
        { ...b, id: a.id },
        { ...testClient('c', []), sidKey: a.sidKey, apiKey: b.apiKey },
        {
          ...testClient('d', []),
          apiKey: 'same-key-for-both-of-them-000000000',
          sidKey: 'same-key-for-both-of-them-000000000',
        },
      ],
      applicators: [validApplicator('ES-46000123'), validApplicator('ES-46000123', '87654321X')],
      products: [
        validProduct('ES-11179'),
        validProduct('ES-11179'),
        { ...validProduct('ES-19534'), registered: '01-01-2020', expires: '31-12-2019' },
        { ...validProduct('ES-19535'), expires: '31-07-2027', lastUse: '30-07-2027' },
      ],
      farms: [farm, testFarm('46000000001'), testFarm('46000000001', { year: 2027 })],
    });
    expect(problems).toEqual({
      '$.clients[1].id': expect.stringMatching(/repeats \$\.clients\[0\]\.id/),
      '$.clients[2].sidKey': expect.stringMatching(/repeats \$\.clients\[0\]\.sidKey/),
      '$.clients[2].apiKey': expect.stringMatching(/repeats \$\.clients\[1\]\.apiKey/),
      '$.clients[3].apiKey': 'key repeats $.clients[3].sidKey',
      '$.applicators[1].ropo': expect.stringMatching(/repeats/),
      '$.products[1].code': expect.stringMatching(/repeats \$\.products\[0\]\.code/),
      '$.products[2].expires': 'expiry date is before the registration date',
      '$.products[3].lastUse': 'last-use date is before the expiry date',
      '$.farms[1]': expect.stringMatching(/repeats \$\.farms\[0\]/),
      '$.farms[0].crops[2]': expect.stringMatching(/crop variety repeats \$\.farms\[0\]\.crops\[0\]/),
      '$.farms[0].crops[0].parcels[2].name': expect.stringMatching(/parcel name repeats/),
      '$.farms[0].crops[0].parcels[1].sigpac[1]': expect.stringMatching(
        /enclosure repeats \$\.farms\[0\]\.crops\[0\]\.parcels\[0\]\.sigpac\[0\]/,
      ),
    });
  });

  it('reports field problems and repeats together: a broken entry does not hide a duplicate elsewhere', () => {
    const a = testClient('a', []);
    const problems = problemsOf({
      clients: [a, { ...testClient('b', []), id: a.id, colour: 'blue' }],
      applicators: [
        { ...validApplicator('ES-46000123'), nif: '12345678A' },
        validApplicator('ES-46000123', '87654321X'),
      ],
    });
    expect(problems).toEqual({
      '$.clients[1].colour': 'unknown field',
      '$.clients[1].id': expect.stringMatching(/repeats \$\.clients\[0\]\.id/),
      '$.applicators[0].nif': expect.stringMatching(/NIF/),
      '$.applicators[1].ropo': expect.stringMatching(/repeats/),
    });
  });

  it('accepts the same enclosure under two different crops, and the same REA in two campaigns', () => {
    const r = validateDataset({ farms: [testFarm('46000000001'), testFarm('46000000001', { year: 2027 })] });
    expect(r.problems).toEqual([]);
  });

  it('compares dates as dates, not as text', () => {
    // '01-02-2027' < '31-01-2027' as text, but it is the later day.
    const r = validateDataset({ products: [{ ...validProduct(), registered: '31-01-2027', expires: '01-02-2027' }] });
    expect(r.problems).toEqual([]);
  });
});

describe('validateDataset: keys', () => {
  const hashed = (key: string) => `sha256:${hashKey(key)}`;

  it('accepts keys in clear or hashed, and a previous SID key beside the current one', () => {
    const a = testClient('a', []);
    const b = testClient('b', []);
    const r = validateDataset({
      clients: [
        { ...a, previousSidKey: 'the-key-being-retired-0000000000000' },
        {
          ...b,
          sidKey: hashed(b.sidKey),
          previousSidKey: hashed('another-retired-key-0000000000000'),
          apiKey: hashed(b.apiKey),
        },
      ],
    });
    expect(r.problems).toEqual([]);
    expect(r.dataset!.clients[1].sidKey).toBe(hashed(b.sidKey));
  });

  it('reports every key problem at once: malformed hashes, short keys, and one key twice in clear and hashed', () => {
    const a = testClient('a', []);
    const b = testClient('b', []);
    const problems = problemsOf({
      clients: [
        { ...a, sidKey: `sha256:${'A'.repeat(64)}`, previousSidKey: 'short' },
        { ...b, previousSidKey: hashed(b.sidKey), apiKey: `sha256:${'0'.repeat(63)}` },
        { ...testClient('c', []), sidKey: hashed(a.apiKey), previousSidKey: a.apiKey },
      ],
    });
    expect(problems).toEqual({
      '$.clients[0].sidKey': 'a hashed key is sha256: and 64 lower-case hex digits',
      '$.clients[0].previousSidKey': 'a key must be at least 32 characters',
      '$.clients[1].apiKey': 'a hashed key is sha256: and 64 lower-case hex digits',
      '$.clients[1].previousSidKey': 'key repeats $.clients[1].sidKey',
      '$.clients[2].sidKey': 'key repeats $.clients[0].apiKey',
      '$.clients[2].previousSidKey': 'key repeats $.clients[0].apiKey',
    });
  });

  it('refuses every clear key where clear keys are not allowed, naming the hash to write instead', () => {
    const a = testClient('a', []);
    const b = testClient('b', []);
    const r = validateDataset(
      {
        clients: [
          { ...a, previousSidKey: 'the-key-being-retired-0000000000000' },
          { ...b, sidKey: hashed(b.sidKey), apiKey: hashed(b.apiKey) },
        ],
      },
      { clearKeys: false },
    );
    expect(r.dataset).toBeNull();
    expect(r.problems.map((p) => p.path)).toEqual([
      '$.clients[0].sidKey',
      '$.clients[0].previousSidKey',
      '$.clients[0].apiKey',
    ]);
    for (const p of r.problems) expect(p.message).toMatch(/^a key in clear: write its hash \(sha256:.*new-key/);
  });

  it('keeps accepting a dataset of the old form, one SID key per client in clear, where clear keys are allowed', () => {
    const old = JSON.parse(JSON.stringify({ clients: [testClient('old', ['46000000001'])] }));
    expect(Object.keys(old.clients[0])).not.toContain('previousSidKey');
    expect(validateDataset(old).problems).toEqual([]);
  });
});

describe('validateDataset: scopes of use (issue 34)', () => {
  const use = validProduct().uses[0];

  it('accepts a use of each scope, a premises use with no crop, and reads a use without scope as a field use', () => {
    const product = {
      ...validProduct(),
      uses: [
        use,
        { ...use, scope: 'field' },
        { ...use, scope: 'postharvest', cropTypeIds: ['206'] },
        { ...use, scope: 'seed', cropTypeIds: ['1'] },
        { ...use, scope: 'facility', cropTypeIds: [] },
      ],
    };
    const r = validateDataset({ products: [product] });
    expect(r.problems).toEqual([]);
    expect(r.dataset!.products[0].uses.map(scopeOf)).toEqual(['field', 'field', 'postharvest', 'seed', 'facility']);
    // stored as given: a use without scope stays without it
    expect(r.dataset!.products[0].uses[0]).not.toHaveProperty('scope');
  });

  it('reports every scope problem of the file at once, with its path: an unknown scope, a crop-less use that is no premises', () => {
    const problems = problemsOf({
      products: [
        {
          ...validProduct('ES-00001'),
          uses: [
            { ...use, scope: 'orchard' },
            { ...use, cropTypeIds: [] },
          ],
        },
        { ...validProduct('ES-00002'), uses: [{ ...use, scope: 'postharvest', cropTypeIds: [] }] },
      ],
    });
    expect(Object.keys(problems).sort()).toEqual(
      ['$.products[0].uses[0].scope', '$.products[0].uses[1].cropTypeIds', '$.products[1].uses[0].cropTypeIds'].sort(),
    );
    expect(problems['$.products[1].uses[0].cropTypeIds']).toMatch(/unless its scope is facility/);
  });
});
