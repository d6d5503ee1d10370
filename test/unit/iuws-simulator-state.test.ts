import {
  DEFAULT_KNOBS,
  SiexSimulatorState,
  controlSchema,
  tratamFitoBlocks,
} from '../../local/siex-simulator/simulator';
import { requestFingerprint } from '../../shared/idempotency/idempotency';
import { cueDocument, tratamFito } from '../integration/iuws-fixtures';

/** The simulator's rules without HTTP, on a clock of our own. */

function state(initial = {}) {
  let now = 1_700_000_000_000;
  const s = new SiexSimulatorState({ username: 'u', password: 'p' }, initial, () => now);
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
      records: { '1': 1, '2': 2, '3': 1 },
      duplicates: [2],
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
});
