import { RawProductInput, registerUse as use } from '../../local/fixtures/register';

/**
 * Register products whose uses are not all field uses, row by row as the real export writes them: each use's crop,
 * agent, doses, unit, safety period, applications, interval, `MetodoAplicacion` and `Ambito` are copied verbatim from
 * `egoiska/fitoScannerMini` `detalle/<number>.json` (commit b759322f), cut from the ministry's
 * `ProductosAutorizados_*.json` (downloaded 30-09-2026); the product's name, holder, formulation and dates from the
 * same repository's `registro.json` (commit 119ed9e2). That copy drops empty values, so a field absent there is empty
 * here (and a dose absent there is 0). Where a product has more rows than a test needs, a few are kept, named in
 * its comment. shared/catalog/register/read-scope.ts reads their scopes.
 */

const POSTHARVEST_FUNGI = 'Enfermedades post-cosecha (hongos)';

/** DECCO ZOX: field uses (l/ha) and post-harvest drencher uses on "Frutos cítricos" and "Plátanos" in one product. */
export const deccoZox = (): RawProductInput => ({
  num: 'ES-00477',
  name: 'DECCO ZOX',
  holder: 'DECCO IBERICA POST COSECHA S.A.U.',
  formulado: 'AZOXISTROBIN 25% [SC] P/V',
  registered: '2019-07-30',
  expires: '2027-05-31',
  composition: [['AZOXISTROBIN', 25, '%']],
  conditions:
    'Tratamientos fungicidas para uso profesional en cultivos al aire libre. Aplicación por pulverización foliar.\r\r' +
    'Tratamiento fungicida en post-cosecha por drencher e inmersión en frutos cítricos. Se aplica dentro de ' +
    'instalaciones de envasado en frutos cítricos almacenados destinados al consumo humano.',
  uses: [
    // 6 of its 31 rows: three field crops, the two post-harvest rows, a field melon.
    use('Alcachofa', 'Oídio, oidiopsis, Leveillula taurica', 1.0, 1.0, 'l/ha', '7 ', {
      Aplicaciones: '1-2 ',
      IntervaloAplicaciones: '7-10 días',
    }),
    use('Cebada', 'Helmintosporiosis reticular de la cebada, Pyrenophora teres', 1.0, 1.0, 'l/ha', '35 ', {
      Aplicaciones: '1-2',
      IntervaloAplicaciones: '14 días',
    }),
    use('Trigo', 'Roya parda del trigo, Puccinia triticina', 1.0, 1.0, 'l/ha', '35 ', {
      Aplicaciones: '1-2',
      IntervaloAplicaciones: '14 días',
    }),
    use('Frutos cítricos', POSTHARVEST_FUNGI, 0, 600.0, 'ml/Hl', 'NO PROCEDE', {
      Aplicaciones: '1',
      IntervaloAplicaciones: '--',
      MetodoAplicacion: 'Ttos. Postcosecha',
    }),
    use('Plátanos', POSTHARVEST_FUNGI, 0, 120.0, 'ml/Hl', 'NO PROCEDE', {
      Aplicaciones: '1',
      IntervaloAplicaciones: '--',
      MetodoAplicacion: 'Ttos. Postcosecha',
    }),
    use('Melón', 'Mildiu de las cucurbitáceas, Pseudoperonospora cubensis', 0.7, 0.8, 'l/ha', '3', {
      Aplicaciones: '3',
      IntervaloAplicaciones: '7-10 días',
    }),
  ],
});

/** CITRASHINE N-IMZ: an imazalil wax for packing houses, on "Frutos cítricos" with no method: the produce says it. */
export const citrashine = (): RawProductInput => ({
  num: '16232',
  name: 'CITRASHINE N-IMZ',
  holder: 'DECCO IBERICA POST COSECHA S.A.U.',
  formulado: 'IMAZALIL 0,2% [EW] P/V',
  registered: '1983-10-10',
  expires: '2027-05-31',
  composition: [['IMAZALIL', 0.2, '%']],
  conditions:
    'Tratamiento post-cosecha de cítricos. [...] Uso reservado a centrales hortofrutícolas y aplicadores profesionales.',
  uses: [use('Frutos cítricos', POSTHARVEST_FUNGI, 1.0, 0, 'l/Tm', 'NP', { Aplicaciones: '1' })],
});

const chamber = { Aplicaciones: '1', MetodoAplicacion: 'Otros (ver condic.)', Ambito: 'No Agrario' };

/** SMARTFRESH: 1-MCP in cold-store chambers (g/m3) on "Caquis", "Manzanas", "Peras", "Tomates"; Ambito "No Agrario". */
export const smartfresh = (): RawProductInput => ({
  num: 'ES-01173',
  name: 'SMARTFRESH',
  holder: 'AGROFRESH HOLDING FRANCE S.A.S.',
  formulado: '1-METILCICLOPROPENO 3,3% [VP] P/P',
  registered: '2007-06-07',
  expires: '2034-07-31',
  composition: [['1-METILCICLOPROPENO', 3.3, '%']],
  uses: [
    // 5 of its 10 rows.
    use('Caquis', 'Mantenimiento firmeza de frutos', 0.042, 0, 'g/m3', 'NP', chamber),
    use('Manzanas', 'Reducción del escaldado', 0.042, 0, 'g/m3', 'NP', chamber),
    use('Peras', 'Mantenimiento firmeza de frutos', 0.0215, 0, 'g/m3', 'NP', chamber),
    use('Tomates', 'Retraso maduración en productos recolectados', 0.042, 0, 'g/m3', 'NP', chamber),
    use('Ciruelas', 'Mantenimiento firmeza de frutos', 0.042, 0, 'g/m3', 'NP', chamber),
  ],
});

/** 1,4SIGHT: a sprout inhibitor for stored "Patatas" (l/Tm), Ambito "Agrario". */
export const sight = (): RawProductInput => ({
  num: 'ES-01178',
  name: '1,4SIGHT',
  holder: 'DormFresh Limited',
  formulado: '1,4 - DIMETILNAFTALENO 98% [HN/KN] P/P',
  registered: '2021-10-07',
  expires: '2027-11-30',
  composition: [['1,4 Dimetilnaftaleno', 98, '%']],
  uses: [
    use('Patatas', 'Inhibición brotación', 0.02, 0, 'l/Tm', '30 DÍAS* (VER COND. ESP.)\r', {
      Aplicaciones: '6/año',
      IntervaloAplicaciones: '28 días',
      MetodoAplicacion: 'Otros (ver condic.)',
      Ambito: 'Agrario',
    }),
  ],
});

const ulv = { MetodoAplicacion: 'Pulverización con tractor por ULV', Ambito: 'Agrario' };

/** ACTELLIC 50-E: grain on the conveyor belt ("Granos de ..."), l/Tm, a field-sounding method and Ambito "Agrario". */
export const actellic = (): RawProductInput => ({
  num: '12240',
  name: 'ACTELLIC 50-E',
  holder: 'SYNGENTA ESPAÑA, S.A.',
  formulado: 'METIL PIRIMIFOS 50% [EC] P/V',
  registered: '1976-07-20',
  expires: '2027-01-31',
  composition: [['METIL PIRIMIFOS', 50, '%']],
  uses: ['Granos de avena', 'Granos de cebada', 'Granos de sorgo-grano', 'Granos de trigo', 'Granos de triticale'].map(
    (grain) => use(grain, 'Insectos', 0.008, 0, 'l/Tm', '1', ulv),
  ),
});

/** K-OBIOL ULV6: stored grain and pulses by their product groups, "Granos de cereales", "Granos de leguminosas". */
export const kobiolUlv = (): RawProductInput => ({
  num: '16786',
  name: 'K-OBIOL ULV6',
  holder: '2022 Environmental Science FR S.A.S.',
  formulado: 'DELTAMETRIN 0,6% [UL] P/V',
  registered: '1987-06-05',
  expires: '2028-06-30',
  composition: [['DELTAMETRIN', 0.6, '%']],
  uses: ['Granos de cereales', 'Granos de leguminosas'].map((goods) =>
    use(goods, 'Insectos de almacén', 42.0, 84.0, 'cc/Tm', 'NP', { Aplicaciones: '1' }),
  ),
});

/** K-OBIOL EC 25: the store itself ("Almacenes", cc/100 m2 of floor) and the grain in it (cc/Tm), in one product. */
export const kobiolEc = (): RawProductInput => ({
  num: '25710',
  name: 'K-OBIOL EC 25',
  holder: '2022 Environmental Science FR S.A.S.',
  formulado: 'DELTAMETRIN 2,5% (POS) [EC] P/V',
  registered: '2015-02-02',
  expires: '2028-06-30',
  composition: [['DELTAMETRIN', 2.5, '%']],
  conditions: 'Aplicar en pulverización normal',
  uses: [
    use('Almacenes', 'Curculiónidos, Curculionidae', 40.0, 60.0, 'cc/100 m2', 'NP'),
    use('Almacenes', 'Insectos de almacén', 40.0, 60.0, 'cc/100 m2', 'NP'),
    use('Almacenes', 'Polillas de almacén, Ephestia spp.', 40.0, 60.0, 'cc/100 m2', 'NP'),
    use('Granos de cereales', 'Curculiónidos, Curculionidae', 20.0, 0, 'cc/Tm', 'NP'),
    use('Granos de cereales', 'Insectos de almacén', 20.0, 0, 'cc/Tm', 'NP'),
    use('Granos de cereales', 'Nefasia, Cnephasia pumicana', 20.0, 0, 'cc/Tm', 'NP'),
  ],
});

const seedMethod = { MetodoAplicacion: 'Ttos. Para semillas' };

/** LUMISENA: seed treatment by method ("Ttos. Para semillas") on "Semillas de girasol", a PROD_VEGETAL product name. */
export const lumisena = (): RawProductInput => ({
  num: 'ES-01187',
  name: 'LUMISENA',
  holder: 'CORTEVA AGRISCIENCE SPAIN, S.L.U. (Sevilla)',
  formulado: 'OXATIAPIPROLIN 20% [FS] P/V',
  registered: '2021-10-28',
  expires: '2028-03-03',
  composition: [['Oxatiapiprolina', 20, '%']],
  conditions: 'Fungicida de uso profesional para tratamiento de semillas.',
  uses: [
    use('Semillas de adormidera', 'Plasmopara spp.', 0, 8.45, 'ml/ha', 'NO PROCEDE', {
      ...seedMethod,
      Ambito: 'Agrario',
    }),
    use('Semillas de girasol', 'Mildiu del girasol, Plasmopara halstedii', 0, 8.45, 'ml/ha', 'NO PROCEDE', {
      ...seedMethod,
      Ambito: 'Agrario',
    }),
  ],
});

/** LATITUDE XL: seed treatment of "Simiente de trigo" (l/Tm), Ambito "No Agrario". */
export const latitude = (): RawProductInput => ({
  num: 'ES-00080',
  name: 'LATITUDE XL',
  holder: 'CERTIS BELCHIM B.V.',
  formulado: 'SILTIOFAM 12,5% [FS] P/P',
  registered: '2015-04-29',
  expires: '2033-06-30',
  composition: [['SILTIOFAM', 12.5, '%']],
  conditions: 'Aplicar homogéneamente mediante maquinaria para el tratamiento de semillas.',
  uses: ['Simiente de trigo', 'Simiente de triticale'].map((seed) =>
    use(seed, 'Mal del pie, pie negro, Gaeumannomyces graminis', 2.0, 0, 'l/Tm', 'NP', {
      Aplicaciones: '1',
      ...seedMethod,
      Ambito: 'No Agrario',
    }),
  ),
});

/** KINTO PLUS: seed treatment named by field crops ("Cebada", "Trigo"): only the unit, per 100 kg of seed, says so. */
export const kintoPlus = (): RawProductInput => ({
  num: 'ES-00712',
  name: 'KINTO PLUS',
  holder: 'BASF Agricultural Solutions Spain S.L.U.',
  formulado: 'FLUXAPYROXAD 3,33% + TRITICONAZOL 3,33% + FLUDIOXONIL 3,33% [FS] P/V',
  registered: '2020-01-13',
  expires: '2027-01-31',
  composition: [
    ['FLUDIOXONIL', 3.33, '%'],
    ['FLUXAPYROXAD', 3.33, '%'],
    ['TRITICONAZOL', 3.33, '%'],
  ],
  conditions: 'Fungicida para uso profesional en el tratamiento de semillas de cereales de invierno y primavera.',
  uses: [
    // 3 of its 6 rows.
    use('Cebada', 'Carbón desnudo, Ustilago nuda', 120.0, 150.0, 'ml/100 kg de semillas', 'NO PROCEDE', {
      Aplicaciones: '1',
    }),
    use('Trigo', 'Caries, Tilletia caries', 120.0, 150.0, 'ml/100 kg de semillas', 'NO PROCEDE', { Aplicaciones: '1' }),
    use('Triticale', 'Fusariosis, Fusarium spp.', 120.0, 150.0, 'ml/100 kg de semillas', 'NO PROCEDE', {
      Aplicaciones: '1',
    }),
  ],
});

/** REDIGO M: seed treatment of "Simiente de maíz" and "Simiente de sorgo", dosed per hectare sown, no method. */
export const redigoM = (): RawProductInput => ({
  num: 'ES-00362',
  name: 'REDIGO M',
  holder: 'BAYER CROPSCIENCE, S.L. (Barcelona)',
  formulado: 'METALAXIL 2%  + PROTIOCONAZOL 10% [FS] P/V',
  registered: '2019-11-04',
  expires: '2027-03-31',
  composition: [
    ['METALAXIL', 2, '%'],
    ['PROTIOCONAZOL', 10, '%'],
  ],
  conditions: 'Tratamiento fungicida para el tratamiento de semillas (mecanizado) en centros industriales.',
  uses: [
    use('Simiente de maíz', 'Fusariosis, Fusarium spp.', 0.03, 0.048, 'l/ha', 'NO PROCEDE', {
      Aplicaciones: '1',
      IntervaloAplicaciones: '--',
    }),
    use('Simiente de sorgo', 'Pythium spp.', 0.0195, 0.0195, 'l/ha', 'NO PROCEDE', {
      Aplicaciones: '1',
      IntervaloAplicaciones: '--',
    }),
  ],
});

const regulator = 'Reguladores de crecimiento';

/**
 * RESTRAIN: ethylene for stored potatoes, onions, garlic and shallots, seed potatoes in store ("Simiente de patatas",
 * which is stored seed, not a seed treatment), and greenhouse tomatoes ("Tomate", a field use).
 */
export const restrain = (): RawProductInput => ({
  num: 'ES-00885',
  name: 'RESTRAIN',
  holder: 'RESTRAIN SISTEMAS S.L.',
  formulado: 'ETILENO 90% (producido a partir de etanol) [GE] P/P',
  registered: '2020-01-13',
  expires: '2026-11-30',
  composition: [['ETILENO', 90, '%']],
  conditions:
    'Regulador del crecimiento para patatas, cebollas, ajo y chalotes en post-cosecha (almacén) y tomates en ' +
    'invernadero.',
  uses: [
    use('Ajos', regulator, 15.0, 15.0, 'ppm', 'NO PROCEDE', { Aplicaciones: '1' }),
    use('Patatas', regulator, 10.0, 10.0, 'ppm', 'NO PROCEDE', { Aplicaciones: '1' }),
    use('Simiente de patatas', regulator, 10.0, 10.0, 'ppm', 'NO PROCEDE', { Aplicaciones: '1' }),
    use('Tomate', regulator, 1.4, 1.4, 'ppm', 'NO PROCEDE', { Aplicaciones: '1' }),
  ],
});

const tractor = { MetodoAplicacion: 'Pulverización normal con tractor', Ambito: 'Agrario' };
const others = { MetodoAplicacion: 'Otros (ver condic.)', Ambito: 'Agrario' };

/**
 * MAXIM: its post-harvest use (calyx retention by drencher in packing houses) exists only in its conditions of use;
 * every row names a growing crop ("Naranjo", "Mandarino ...") with "Otros (ver condic.)" or a tractor: field uses.
 */
export const maxim = (): RawProductInput => ({
  num: '19684',
  name: 'MAXIM',
  holder: 'ARYSTA LIFESCIENCE BENELUX Sprl.',
  formulado: 'TRICLOPIR 10% (1 G/TABLETA) [TB] P/P',
  registered: '1993-06-28',
  expires: '2027-03-31',
  composition: [['Triclopir', 1, 'g/tableta']],
  conditions:
    'Para tratamientos de post-cosecha (retención del cáliz en naranjo y  mandarino) aplicar mediante sistema drencher.',
  uses: [
    // 3 of its 11 rows.
    use('Naranjo', 'Inhibición caída de frutos', 1.0, 1.5, 'Tabs./100 l agua', '32 (EVITAR CAÍDA DE FRUTO)', {
      Aplicaciones: '1',
      IntervaloAplicaciones: '-',
      ...others,
    }),
    use('Mandarino (incluido clementino e híbridos)', 'Aumento peso del fruto', 1.0, 1.5, 'Tabs./100 l agua', '110', {
      Aplicaciones: '1',
      IntervaloAplicaciones: '-',
      ...tractor,
    }),
    use('Limonero', 'Aumento peso del fruto', 1.5, 1.5, 'Tabs./100 l agua', '110', {
      Aplicaciones: '1',
      IntervaloAplicaciones: '-',
      ...tractor,
    }),
  ],
});

/** Every product above: the register import's scope counts are measured on them (and on catalog-fixtures.ts). */
export const scopedProducts = (): RawProductInput[] => [
  deccoZox(),
  citrashine(),
  smartfresh(),
  sight(),
  actellic(),
  kobiolUlv(),
  kobiolEc(),
  lumisena(),
  latitude(),
  kintoPlus(),
  redigoM(),
  restrain(),
  maxim(),
];

/**
 * Rows of products the import cannot store (no dose, "(ver nota)"), for the scope rule alone: PHILABUSTER 400 SC
 * (24278), post-harvest with no method, no conditions and ordinary pest names; PROFUME (25402), a fumigant for stores,
 * packaging and nuts; PHOSTOXIN PELLET (13115), burrows in the field, stored goods and premises in one product.
 */
export const undosedRows = {
  philabuster: () => [use('Frutos cítricos', 'Penicilium, Penicillium spp.', 0, 0, '(ver nota)', 'NP')],
  profume: () =>
    [
      ['Almacenes', 'Insectos de almacén'],
      ['Envases y embalajes', 'Nematodo de la madera del pino, Bursaphelenchus xylophilus'],
      ['Frutos secos', 'Insectos de almacén'],
    ].map(([crop, agent]) => use(crop, agent, 0, 0, '(ver nota)', 'NP')),
  phostoxin: () =>
    [
      ['Frutales de pepita', 'Topillos, Microtus spp.', '(ver nota)'],
      ['Especies vegetales', 'Topos, Talpa europaea', '(ver nota)'],
      ['Granos de cereales', 'Insectos de almacén', '(ver condic. específico)'],
      ['Simientes', 'Insectos de almacén', '(ver condic. específico)'],
      ['Tabaco (producto cosechado)', 'Insectos de almacén', '(ver condic. específico)'],
      ['Cacao en grano', 'Insectos de almacén', '(ver condic. específico)'],
      ['Nuez de cola', 'Insectos de almacén', '(ver condic. específico)'],
      ['Locales y almacenes', 'Insectos de almacén', '(ver condic. específico)'],
      ['Sustratos, enmiendas y materiales de acolchado', 'Insectos de almacén', '(ver condic. específico)'],
      [
        'Tratamientos de cuarentena para productos no destinados al consumo humano ni animal',
        'Insectos de almacén',
        '(ver condic. específico)',
      ],
    ].map(([crop, agent, unit]) => use(crop, agent, 0, 0, unit, 'NP')),
};
