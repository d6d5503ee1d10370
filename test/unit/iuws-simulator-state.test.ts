import { readFileSync } from 'node:fs';
import { cueSections } from '../../local/siex-simulator/cue-sections';
import { controlSchema, DEFAULT_KNOBS } from '../../local/siex-simulator/knobs';
import { SiexSimulatorState } from '../../local/siex-simulator/simulator';
import { cueSchemaPath } from '../../local/siex-data';
import { findProjectRoot } from '../../local/stack';
import { requestFingerprint } from '../../shared/idempotency/idempotency';
import { cosecha, cueDocument, fertilizacion, tratamFito, tratamFitoBlocks } from '../integration/iuws-fixtures';

/** The simulator's rules without HTTP, on a clock of our own. */

const schema = JSON.parse(readFileSync(cueSchemaPath(findProjectRoot(__dirname)), 'utf8'));
const sections = cueSections(schema);

function state(initial = {}) {
  let now = 1_700_000_000_000;
  const s = new SiexSimulatorState({
    credentials: { username: 'u', password: 'p' },
    sections,
    knobs: initial,
    now: () => now,
  });
  return { s, advance: (ms: number) => (now += ms), at: () => now };
}

describe('SIEX simulator state', () => {
  it('is PENDIENTE for the first half of processingMs, EN_PROCESO for the second, then FINALIZADO with the results', () => {
    const { s, advance } = state({ processingMs: 1000 });
    const sub = s.accept(cueDocument([tratamFito(1)]), 'k');
    expect(s.status(sub.idPeticion)).toEqual({ estado: 'PENDIENTE', resultados: [] });
    advance(499);
    expect(s.status(sub.idPeticion)?.estado).toBe('PENDIENTE');
    advance(2);
    expect(s.status(sub.idPeticion)?.estado).toBe('EN_PROCESO');
    advance(499);
    expect(s.status(sub.idPeticion)).toEqual({
      estado: 'FINALIZADO',
      resultados: [{ IdAjenaTratamFito: 1, resultado: 'OK', errores: [] }],
    });
    expect(s.status('nope')).toBeUndefined();
  });

  it('decides outcomes with the knobs in force when crear accepted, not later', () => {
    const { s, advance } = state({ processingMs: 10 });
    s.control({ rejectIds: [2] });
    const sub = s.accept(cueDocument([tratamFito(1), tratamFito(2)]), null);
    s.control({ rejectIds: [1] });
    advance(10);
    expect(s.status(sub.idPeticion)?.resultados.map((r) => r.resultado)).toEqual(['OK', 'ERROR']);
  });

  it('counts, per IdAjenaTratamFito, the accepted submissions that contained it; replays do not count', () => {
    const { s } = state();
    const doc = cueDocument([tratamFito(1), tratamFito(2)]);
    const first = s.accept(doc, 'k');
    expect(s.replay('k', structuredClone(doc))).toEqual({ submission: first });
    expect(s.replay('k', cueDocument([tratamFito(1)]))).toEqual({ conflict: true });
    expect(s.replay('other', doc)).toBeUndefined();
    s.accept(cueDocument([tratamFito(2), tratamFito(3), tratamFito(3)]), null);
    expect(s.stats()).toMatchObject({
      submissions: 2,
      replays: 1,
      records: { TratamFito: { '1': 1, '2': 2, '3': 1 } },
      duplicates: [{ section: 'TratamFito', id: 2 }],
    });
  });

  it('takes a document with its keys in another order for the same document', () => {
    expect(requestFingerprint({ a: 1, b: [{ c: 2, d: 3 }] })).toBe(requestFingerprint({ b: [{ d: 3, c: 2 }], a: 1 }));
    expect(requestFingerprint({ a: 1, b: [1, 2] })).not.toBe(requestFingerprint({ a: 1, b: [2, 1] }));
  });

  it('issues tokens for the right credentials only; they expire and can be revoked', () => {
    const { s, advance } = state({ tokenTtlSeconds: 10 });
    expect(s.issueToken('u', 'wrong')).toBeUndefined();
    const t = s.issueToken('u', 'p')!;
    expect(t.expiraEn).toBe(10);
    expect(s.tokenValid(t.token)).toBe(true);
    advance(10_000);
    expect(s.tokenValid(t.token)).toBe(false);
    const t2 = s.issueToken('u', 'p')!;
    s.control({ expireTokens: true });
    expect(s.tokenValid(t2.token)).toBe(false);
    expect(s.tokenValid(undefined)).toBe(false);
  });

  it('injects failures: outage, outage until a time, throttleNext, failNext, failComunicacion', () => {
    const { s, advance, at } = state();
    expect(s.injectedFailure('crear')).toBeUndefined();
    s.control({ outageForMs: 1000 });
    expect(s.injectedFailure('crear')).toMatchObject({ status: 503 });
    advance(1000);
    expect(s.injectedFailure('crear')).toBeUndefined();
    s.control({ outageUntil: new Date(at() + 500).toISOString() });
    expect(s.injectedFailure('comprobarEstado')).toMatchObject({ status: 503 });
    s.control({ outageUntil: null, throttleNext: 1, retryAfterSeconds: 3, failNext: 1 });
    expect(s.injectedFailure('crear')).toEqual({ status: 429, retryAfterSeconds: 3, why: expect.any(String) });
    expect(s.injectedFailure('crear')).toMatchObject({ status: 503 });
    expect(s.injectedFailure('crear')).toBeUndefined();
    s.control({ failComunicacion: true });
    expect(s.injectedFailure('crear')).toBeUndefined();
    expect(s.injectedFailure('comunicacion')).toMatchObject({ status: 503 });
    s.control({ outage: true });
    expect(s.injectedFailure('crear')).toMatchObject({ status: 503 });
  });

  it('reset restores the start knobs and forgets everything else', () => {
    const { s } = state({ latencyMs: 50 });
    s.control({ latencyMs: 0, rejectIds: [1] });
    s.accept(cueDocument([tratamFito(1)]), 'k');
    s.reset();
    expect(s.knobs).toEqual({ ...DEFAULT_KNOBS, latencyMs: 50 });
    expect(s.stats()).toMatchObject({ submissions: 0, records: {} });
    expect(s.replay('k', cueDocument([tratamFito(1)]))).toBeUndefined();
  });

  it('reads the TratamFito blocks of every CUADERNO item', () => {
    const doc = cueDocument([tratamFito(1)]);
    doc.CUADERNO.push({ ...(doc.CUADERNO[0] as object), ActividadesExplotacion: { TratamFito: [tratamFito(2)] } });
    doc.CUADERNO.push({ CAExplotacion: '10' });
    expect(tratamFitoBlocks(doc).map((b) => b.IdAjenaTratamFito)).toEqual([1, 2]);
  });

  it('the control schema refuses unknown knobs and bad values', () => {
    expect(controlSchema.safeParse({ latencyMs: 10, rejectIds: [1, 2] }).success).toBe(true);
    expect(controlSchema.safeParse({ latency: 10 }).success).toBe(false);
    expect(controlSchema.safeParse({ errorRate: 1.5 }).success).toBe(false);
    expect(controlSchema.safeParse({ expireTokens: false }).success).toBe(false);
    expect(controlSchema.safeParse({ outageUntil: 'tomorrow' }).success).toBe(false);
  });

  it('judges, keeps and shows a block of any section of the schema alike, under its own IdAjena', () => {
    const { s, advance } = state({ processingMs: 0 });
    s.control({ rejectIds: [{ section: 'Cosecha', id: 8 }] });
    // Harvest 7 and treatment 7 are two blocks: each section's IdAjena is its own sequence.
    const doc = cueDocument([tratamFito(7)], {}, [], {
      Cosecha: [cosecha(7), cosecha(8), cosecha(9, { Borrar: true })],
    });
    const sub = s.accept(doc, null);
    advance(1);
    expect(s.status(sub.idPeticion)?.resultados).toEqual([
      { IdAjenaTratamFito: 7, resultado: 'OK', errores: [] },
      { IdAjenaCosecha: 7, resultado: 'OK', errores: [] },
      {
        IdAjenaCosecha: 8,
        resultado: 'ERROR',
        errores: [
          { codigo: 'SIM_RECHAZADO', descripcion: 'El simulador rechaza Cosecha IdAjenaCosecha 8 (rejectIds)' },
        ],
      },
      {
        IdAjenaCosecha: 9,
        resultado: 'ERROR',
        errores: [{ codigo: 'COSECHA_NO_EXISTE', descripcion: 'No hay Cosecha con IdAjenaCosecha 9 que borrar' }],
      },
    ]);
    expect(s.listSubmissions(false)[0]?.ids).toEqual({ TratamFito: [7], Cosecha: [7, 8, 9] });
    expect(s.notebook('Cosecha').map((e) => [e.codigoRea, e.idAjena, e.block.CosechaSiega])).toEqual([
      ['ES100000000001', 7, 1],
    ]);
    expect(Object.keys(s.wholeNotebook())).toEqual(['Cosecha', 'TratamFito']);
    expect(s.stats().records).toEqual({ Cosecha: { '7': 1, '8': 1, '9': 1 }, TratamFito: { '7': 1 } });
    s.accept(cueDocument([], {}, [], { Cosecha: [cosecha(7, { Borrar: true })] }), null);
    expect(s.notebook('Cosecha')).toEqual([]);
    expect(s.notebook('TratamFito').map((e) => e.idAjena)).toEqual([7]);
  });

  it('rejectIds: a bare IdAjena refuses it in every section, { section, id } in that section only', () => {
    const { s, advance } = state({ processingMs: 0 });
    s.control({ rejectIds: [3, { section: 'Fertilizacion', id: 4 }] });
    const sub = s.accept(cueDocument([tratamFito(3), tratamFito(4)], {}, [fertilizacion(3), fertilizacion(4)]), null);
    advance(1);
    expect(s.status(sub.idPeticion)?.resultados.map((r) => r.resultado)).toEqual(['ERROR', 'OK', 'ERROR', 'ERROR']);
    expect(s.controlProblems({ rejectIds: [{ section: 'Cosechas', id: 1 }, 2] })).toEqual([
      expect.stringMatching(/^rejectIds: no section Cosechas in the CUE schema \(EnergiaUtilizada, .*Riego\)$/),
    ]);
    expect(s.controlProblems({ rejectIds: [{ section: 'Riego', id: 1 }] })).toEqual([]);
  });
});

describe('the sections of the official CUE schema', () => {
  it('are every member of ActividadesExplotacion, each with the one IdAjena integer its blocks require', () => {
    const members = Object.keys(schema.properties.CUADERNO.items.properties.ActividadesExplotacion.properties);
    expect(members).toHaveLength(15);
    expect(sections.map((s) => s.section)).toEqual(members);
    for (const { section, idAjena } of sections) {
      const item = schema.properties.CUADERNO.items.properties.ActividadesExplotacion.properties[section].items;
      expect([section, item.properties[idAjena].type, item.required.includes(idAjena)]).toEqual([
        section,
        'integer',
        true,
      ]);
    }
    // The names do not follow from one another: the schema says which.
    expect(sections).toEqual(
      expect.arrayContaining([
        { section: 'TratamFito', idAjena: 'IdAjenaTratamFito' },
        { section: 'Fertilizacion', idAjena: 'IdAjenaFerti' },
        { section: 'TratamientosPostCosecha', idAjena: 'IdAjenaTratamPostco' },
        { section: 'Analitica', idAjena: 'IdAjenaAna' },
        { section: 'PlanAbonado', idAjena: 'IdAjenaPlan' },
      ]),
    );
  });

  it('a schema whose section names its blocks by no IdAjena, or by one it does not require, is refused by name', () => {
    const withSection = (items: object) => ({
      properties: {
        CUADERNO: { items: { properties: { ActividadesExplotacion: { properties: { Nueva: { items } } } } } },
      },
    });
    expect(() => cueSections(withSection({ properties: { Id: { type: 'integer' } } }))).toThrow(
      'section Nueva of the schema has 0 integer IdAjena fields: expected one, required',
    );
    expect(() => cueSections(withSection({ properties: { IdAjenaNueva: { type: 'integer' } } }))).toThrow(
      'section Nueva of the schema has an IdAjena field it does not require (IdAjenaNueva): expected one, required',
    );
    expect(
      cueSections(withSection({ required: ['IdAjenaNueva'], properties: { IdAjenaNueva: { type: 'integer' } } })),
    ).toEqual([{ section: 'Nueva', idAjena: 'IdAjenaNueva' }]);
    expect(() => cueSections({})).toThrow('the schema has no CUADERNO[].ActividadesExplotacion members');
  });
});
