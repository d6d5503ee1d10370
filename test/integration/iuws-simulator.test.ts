import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseSettings } from '../../shared/config/config';
import { IuwsClient, IuwsDeps, IuwsError, IuwsStatus, createIuwsClient } from '../../shared/siex/iuws-client';
import { siexSimulatorControl } from '../../local/siex-simulator/control';
import { startSiexSimulator } from '../../local/siex-simulator/server';
import { siexSimulatorService } from '../../local/siex-simulator/service';
import { findProjectRoot } from '../../local/stack';
import { cosecha, cueDocument, fertilizacion, schemaSections, simulatorForFile, tratamFito } from './iuws-fixtures';

/** The IUWS client against the SIEX simulator over real HTTP (in process), and the simulator as a process. */

const { url, control } = simulatorForFile(150);

function clientFor(url: string, extra: Record<string, string> = {}, deps: IuwsDeps = {}): IuwsClient {
  return createIuwsClient(
    parseSettings({
      AzureWebJobsStorage: 'UseDevelopmentStorage=true',
      SIEX_BASE_URL: url,
      SIEX_USERNAME: 'siex-local',
      SIEX_PASSWORD: 'siex-local',
      SIEX_TIMEOUT_MS: '2000',
      SIEX_MAX_ATTEMPTS: '4',
      SIEX_RETRY_BASE_MS: '20',
      ...extra,
    }),
    schemaSections(),
    deps,
  );
}
const client = (extra: Record<string, string> = {}, deps: IuwsDeps = {}) => clientFor(url(), extra, deps);

async function failure(p: Promise<unknown>): Promise<IuwsError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(IuwsError);
    return e as IuwsError;
  }
  throw new Error('expected an IuwsError');
}

/** SIEX's outcome of a request, once it has one; the ceiling is one only a hang reaches. */
async function settled(c: IuwsClient, id: string, timeoutMs = 25_000): Promise<IuwsStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = await c.status(id);
    if (s.state === 'done') return s;
    if (Date.now() > deadline) throw new Error(`request ${id} still pending after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Polls until `done` holds; the ceiling is one only a hang reaches. */
async function until(done: () => Promise<boolean>, timeoutMs = 25_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('IUWS client ⇄ SIEX simulator', () => {
  it('submits a document, sees it pending, then every record accepted', async () => {
    const c = client();
    const doc = cueDocument([tratamFito(101), tratamFito(102)]);
    const id = await c.submit(doc, 'job-1-batch-1');
    expect(id).toMatch(/^SIM-/);
    await expect(c.status(id)).resolves.toEqual({ state: 'pending', results: [] });
    expect(await settled(c, id)).toEqual({
      state: 'done',
      results: [
        { externalId: 101, section: 'TratamFito', ok: true, errors: [] },
        { externalId: 102, section: 'TratamFito', ok: true, errors: [] },
      ],
    });
    const [submission] = await control().submissions();
    expect(submission).toMatchObject({
      idPeticion: id,
      idempotencyKey: 'job-1-batch-1',
      ids: { TratamFito: [101, 102] },
      estado: 'FINALIZADO',
      document: doc,
    });
    const stats = await control().stats();
    expect(stats).toMatchObject({
      submissions: 1,
      replays: 0,
      records: { TratamFito: { '101': 1, '102': 1 } },
      duplicates: [],
    });
    expect(stats.calls).toMatchObject({ comunicacion: 1, crear: 1 });
    expect(stats.status.crear).toEqual({ '202': 1 });
  });

  it('keeps Fertilizacion blocks in the notebook under their own ids, apart from treatments, and deletes them', async () => {
    const c = client();
    // Treatment 301 and fertilization 301: two sequences, two blocks.
    const id = await c.submit(cueDocument([tratamFito(301)], {}, [fertilizacion(301), fertilizacion(302)]), 'f-1');
    expect((await settled(c, id)).results).toEqual([
      { externalId: 301, section: 'TratamFito', ok: true, errors: [] },
      { externalId: 301, section: 'Fertilizacion', ok: true, errors: [] },
      { externalId: 302, section: 'Fertilizacion', ok: true, errors: [] },
    ]);
    expect((await control().submissions()).find((s) => s.idPeticion === id)).toMatchObject({
      ids: { TratamFito: [301], Fertilizacion: [301, 302] },
    });
    expect((await control().notebook('TratamFito')).map((e) => e.idAjena)).toEqual([301]);
    const held = await control().notebook('Fertilizacion', 'ES100000000001');
    expect(held.map((e) => e.idAjena)).toEqual([301, 302]);
    expect(held[0].block).toMatchObject({ MaterialFertilizante: { Material: 3 } });

    const gone = await c.submit(
      cueDocument([], {}, [fertilizacion(302, { Borrar: true }), fertilizacion(999, { Borrar: true })]),
      'f-2',
    );
    expect((await settled(c, gone)).results).toEqual([
      { externalId: 302, section: 'Fertilizacion', ok: true, errors: [] },
      {
        externalId: 999,
        section: 'Fertilizacion',
        ok: false,
        errors: [{ code: 'FERTILIZACION_NO_EXISTE', message: 'No hay Fertilizacion con IdAjenaFerti 999 que borrar' }],
      },
    ]);
    expect((await control().notebook('Fertilizacion')).map((e) => e.idAjena)).toEqual([301]);
  });

  it('refuses a Fertilizacion block the schema refuses, as it refuses a treatment', async () => {
    const e = await failure(
      client().submit(cueDocument([], {}, [fertilizacion(5, { BuenasPracticas: undefined })]), 'f-3'),
    );
    expect(e).toMatchObject({ code: 'SIEX_REJECTED', retryable: false });
    expect(e.message).toContain('BuenasPracticas');
  });

  it('takes, judges, keeps and shows a section no record kind writes (Cosecha) as any other', async () => {
    const c = client();
    await control().set({ rejectIds: [{ section: 'Cosecha', id: 12 }] });
    const doc = cueDocument([], {}, [], { Cosecha: [cosecha(11), cosecha(12), cosecha(13, { Borrar: true })] });
    const id = await c.submit(doc, 'c-1');
    expect((await settled(c, id)).results).toEqual([
      { externalId: 11, section: 'Cosecha', ok: true, errors: [] },
      {
        externalId: 12,
        section: 'Cosecha',
        ok: false,
        errors: [{ code: 'SIM_RECHAZADO', message: 'El simulador rechaza Cosecha IdAjenaCosecha 12 (rejectIds)' }],
      },
      {
        externalId: 13,
        section: 'Cosecha',
        ok: false,
        errors: [{ code: 'COSECHA_NO_EXISTE', message: 'No hay Cosecha con IdAjenaCosecha 13 que borrar' }],
      },
    ]);
    expect((await control().submissions()).find((s) => s.idPeticion === id)?.ids).toEqual({ Cosecha: [11, 12, 13] });
    expect(await control().notebook('Cosecha', 'ES100000000001')).toEqual([
      { codigoRea: 'ES100000000001', idAjena: 11, block: cosecha(11) },
    ]);
    expect(await control().wholeNotebook()).toEqual({
      Cosecha: [{ codigoRea: 'ES100000000001', idAjena: 11, block: cosecha(11) }],
    });
    expect((await control().stats()).records).toEqual({ Cosecha: { '11': 1, '12': 1, '13': 1 } });
  });

  it('answers 404 for the notebook of a section the schema lacks, and 400 for a knob naming one', async () => {
    const res = await fetch(`${url()}/_inspect/notebook/Cosechas`);
    expect([res.status, ((await res.json()) as { codigo: string }).codigo]).toEqual([404, 'SECCION_DESCONOCIDA']);
    await expect(control().set({ rejectIds: [{ section: 'Cosechas', id: 1 }] })).rejects.toThrow(
      /400: .*rejectIds: no section Cosechas in the CUE schema/,
    );
    expect((await control().knobs()).rejectIds).toEqual([]);
  });

  it('a repeat with the same idempotency key answers the same request id and is not a new submission', async () => {
    const c = client();
    const doc = cueDocument([tratamFito(7), tratamFito(8)]);
    const first = await c.submit(doc, 'job-9-batch-1');
    const again = await c.submit(structuredClone(doc), 'job-9-batch-1');
    expect(again).toBe(first);
    const other = await c.submit(cueDocument([tratamFito(9)]), 'job-9-batch-2');
    expect(other).not.toBe(first);
    const stats = await control().stats();
    expect(stats).toMatchObject({
      submissions: 2,
      replays: 1,
      records: { TratamFito: { '7': 1, '8': 1, '9': 1 } },
      duplicates: [],
    });
    expect(await control().submissions()).toHaveLength(2);
  });

  it('the same key with a different document is refused (409), not retried', async () => {
    const c = client();
    await c.submit(cueDocument([tratamFito(1)]), 'k-1');
    const e = await failure(c.submit(cueDocument([tratamFito(2)]), 'k-1'));
    expect(e).toMatchObject({ code: 'SIEX_REJECTED', status: 409, retryable: false });
    expect(e.message).toContain('IDEMPOTENCIA_CONFLICTO');
  });

  it('an answer lost to a time-out does not make a second submission: the retry carries the same key', async () => {
    const c = client({ SIEX_TIMEOUT_MS: '150', SIEX_RETRY_BASE_MS: '200', SIEX_MAX_ATTEMPTS: '8' });
    await c.submit(cueDocument([tratamFito(500)]), 'warm-up'); // the token, before SIEX turns slow
    await control().set({ latencyMs: 250 });
    const pending = c.submit(cueDocument([tratamFito(501)]), 'job-5-batch-1');
    // SIEX takes the first try after the client has given up on it (250 ms of latency against a 150 ms time-out).
    await until(async () => (await control().stats()).records.TratamFito?.['501'] === 1);
    await control().set({ latencyMs: 0 });
    const id = await pending;
    const stats = await control().stats();
    expect(stats.records.TratamFito?.['501']).toBe(1);
    expect(stats.replays).toBeGreaterThanOrEqual(1);
    expect((await control().submissions()).find((s) => s.ids.TratamFito?.includes(501))?.idPeticion).toBe(id);
  });

  it('rides out a short outage by retrying', async () => {
    const c = client({ SIEX_RETRY_BASE_MS: '100', SIEX_MAX_ATTEMPTS: '10' });
    await control().set({ outage: true });
    const submitted = c.submit(cueDocument([tratamFito(31)]), 'k');
    // Back once the client has met the outage, however long it took to get there.
    await until(async () => ((await control().stats()).status.comunicacion?.['503'] ?? 0) > 0);
    await control().set({ outage: false });
    const id = await submitted;
    expect((await settled(c, id)).results).toEqual([{ externalId: 31, section: 'TratamFito', ok: true, errors: [] }]);
    const stats = await control().stats();
    expect(stats.status.comunicacion?.['503'] ?? 0).toBeGreaterThan(0);
    expect(stats.submissions).toBe(1);
  });

  it('retries exactly the injected failures (failNext) and then succeeds', async () => {
    const c = client();
    await c.status('SIM-none').catch(() => undefined); // the token
    await control().set({ failNext: 2 });
    await c.submit(cueDocument([tratamFito(41)]), 'k');
    expect((await control().stats()).status.crear).toEqual({ '503': 2, '202': 1 });
  });

  it('honours Retry-After on 429', async () => {
    const waits: number[] = [];
    // The wait itself is real (a second): what is asserted is the delay the client chose, not how long it took.
    const c = client({}, { onRetry: ({ delayMs }) => void waits.push(delayMs) });
    await c.status('SIM-none').catch(() => undefined);
    await control().set({ throttleNext: 1, retryAfterSeconds: 1 });
    await c.submit(cueDocument([tratamFito(42)]), 'k');
    expect(waits).toEqual([1000]);
    expect((await control().stats()).status.crear).toEqual({ '429': 1, '202': 1 });
  });

  it('a lasting outage ends in a retryable error after SIEX_MAX_ATTEMPTS tries', async () => {
    await control().set({ outage: true });
    const e = await failure(client().submit(cueDocument([tratamFito(51)]), 'k'));
    expect(e).toMatchObject({ code: 'SIEX_UNAVAILABLE', status: 503, retryable: true });
    expect(e.message).toMatch(/gave up after 4 tries/);
    const stats = await control().stats();
    expect(stats.calls.comunicacion).toBe(4);
    expect(stats.submissions).toBe(0);
  });

  it('time-outs against a slow SIEX end in a retryable SIEX_TIMEOUT', async () => {
    const c = client({ SIEX_TIMEOUT_MS: '100', SIEX_MAX_ATTEMPTS: '2' });
    await control().set({ latencyMs: 300 });
    await expect(failure(c.status('SIM-x'))).resolves.toMatchObject({ code: 'SIEX_TIMEOUT', retryable: true });
  });

  it('refuses a document that breaks the official schema with 400 and the violations, not retried', async () => {
    const c = client();
    const bad = cueDocument([tratamFito(61, { FechaInicio: '2025-03-03' }), tratamFito(62)], { CodigoRea: 'ES1' });
    delete (bad.CUADERNO[0] as { ActividadesExplotacion: { TratamFito: Record<string, unknown>[] } })
      .ActividadesExplotacion.TratamFito[1].Eficacia;
    const e = await failure(c.submit(bad, 'k'));
    expect(e).toMatchObject({ code: 'SIEX_REJECTED', status: 400, retryable: false });
    expect(e.details?.codigo).toBe('ESQUEMA_INVALIDO');
    const paths = (e.details?.errores as { instancePath: string; message: string }[]).map(
      (x) => `${x.instancePath} ${x.message}`,
    );
    expect(paths).toEqual(
      expect.arrayContaining([
        '/CUADERNO/0/CodigoRea must NOT have fewer than 14 characters',
        expect.stringMatching(/^\/CUADERNO\/0\/ActividadesExplotacion\/TratamFito\/0\/FechaInicio must match pattern/),
        "/CUADERNO/0/ActividadesExplotacion/TratamFito/1 must have required property 'Eficacia'",
      ]),
    );
    expect((await control().stats()).submissions).toBe(0);
  });

  it('the equipment must name exactly one identifier (the schema oneOf)', async () => {
    const both = tratamFito(63, {
      IdentificadorAplicador: [
        {
          AplicadorEmpresa: { NumROPO: 'X' },
          EquipoAplicador: { AplicacionManual: false, NumROMA: 'R1', IdEquipoAplicador: 'E1' },
        },
      ],
    });
    await expect(failure(client().submit(cueDocument([both]), 'k'))).resolves.toMatchObject({ status: 400 });
  });

  it('settles the records named in rejectIds as errors and the others as accepted', async () => {
    await control().set({ rejectIds: [72] });
    const c = client();
    const id = await c.submit(cueDocument([tratamFito(71), tratamFito(72), tratamFito(73)]), 'k');
    expect((await settled(c, id)).results).toEqual([
      { externalId: 71, section: 'TratamFito', ok: true, errors: [] },
      {
        externalId: 72,
        section: 'TratamFito',
        ok: false,
        errors: [{ code: 'SIM_RECHAZADO', message: expect.stringContaining('72') }],
      },
      { externalId: 73, section: 'TratamFito', ok: true, errors: [] },
    ]);
  });

  it('rejects what SIEX would: a repeated IdAjenaTratamFito, dates out of order, deleting an unknown treatment', async () => {
    const c = client();
    const id = await c.submit(
      cueDocument([
        tratamFito(81),
        tratamFito(81),
        tratamFito(82, { FechaInicio: '05/03/2025', FechaFin: '04/03/2025' }),
        tratamFito(83, { Borrar: true }),
      ]),
      'k',
    );
    const codes = (await settled(c, id)).results.map((r) => [r.externalId, r.ok, r.errors.map((e) => e.code)]);
    expect(codes).toEqual([
      [81, false, ['IDAJENA_DUPLICADO']],
      [81, false, ['IDAJENA_DUPLICADO']],
      [82, false, ['FECHAS_INCOHERENTES']],
      [83, false, ['TRATAMFITO_NO_EXISTE']],
    ]);
  });

  it('takes a fresh token when SIEX revokes the one in use', async () => {
    const c = client();
    await c.submit(cueDocument([tratamFito(91)]), 'k-1');
    await control().set({ expireTokens: true });
    await c.submit(cueDocument([tratamFito(92)]), 'k-2');
    const stats = await control().stats();
    expect(stats.calls.comunicacion).toBe(2);
    expect(stats.status.crear).toEqual({ '202': 2, '401': 1 });
  });

  it('short-lived tokens are renewed before they expire', async () => {
    await control().set({ tokenTtlSeconds: 1 });
    // The client's clock: 600 ms into a token of 1 s, it is renewed (SIEX's own clock has not let it expire yet).
    let now = Date.now();
    const c = client({}, { now: () => now });
    await c.status('SIM-x').catch(() => undefined);
    now += 600;
    await c.status('SIM-x').catch(() => undefined);
    const stats = await control().stats();
    expect(stats.calls.comunicacion).toBe(2);
    expect(stats.status.comprobarEstado).toEqual({ '404': 2 });
  });

  it('refuses wrong credentials, for good', async () => {
    const e = await failure(client({ SIEX_PASSWORD: 'wrong' }).submit(cueDocument([tratamFito(1)]), 'k'));
    expect(e).toMatchObject({ code: 'SIEX_AUTH', status: 401, retryable: false });
    expect((await control().stats()).calls.comunicacion).toBe(1);
  });

  it('an unknown request id is a 404, not retried', async () => {
    await expect(failure(client().status('SIM-nope'))).resolves.toMatchObject({
      code: 'SIEX_REJECTED',
      status: 404,
      retryable: false,
    });
  });

  it('answers 401 without a token and 415 for a body that is not JSON', async () => {
    expect(
      (await fetch(`${url()}/crear`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }))
        .status,
    ).toBe(401);
    const { token } = (await (
      await fetch(`${url()}/comunicacion`, {
        method: 'POST',
        body: JSON.stringify({ usuario: 'siex-local', contrasena: 'siex-local' }),
        headers: { 'content-type': 'application/json' },
      })
    ).json()) as { token: string };
    const res = await fetch(`${url()}/crear`, {
      method: 'POST',
      body: 'x',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(415);
    const bad = await fetch(`${url()}/crear`, {
      method: 'POST',
      body: '{',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ codigo: 'JSON_INVALIDO' });
  });

  it('refuses unknown knobs and out-of-range values', async () => {
    const res = await fetch(`${url()}/_control`, {
      method: 'POST',
      body: JSON.stringify({ errorRat: 0.5 }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    await expect(control().set({ errorRate: 2 })).rejects.toThrow(/400/);
    expect(await control().knobs()).toMatchObject({ errorRate: 0, processingMs: 150 });
  });

  it('answers 503 at the configured error rate', async () => {
    await control().set({ errorRate: 1 });
    await expect(failure(client({ SIEX_MAX_ATTEMPTS: '2' }).status('x'))).resolves.toMatchObject({
      code: 'SIEX_UNAVAILABLE',
    });
    await control().set({ errorRate: 0 });
    await expect(failure(client().status('x'))).resolves.toMatchObject({ status: 404 });
  });
});

describe('SIEX simulator without the official schema', () => {
  it('says why at start and refuses every crear with 500', async () => {
    const lines: string[] = [];
    const blind = await startSiexSimulator({
      schemaPath: '/nonexistent/cue-schema-3.11.4.json',
      log: (l) => lines.push(l),
    });
    try {
      expect(blind.schemaProblem).toMatch(/cannot read the official CUE schema at \/nonexistent/);
      expect(lines.join('\n')).toMatch(/every crear will be refused with 500/);
      const e = await failure(
        clientFor(blind.url, { SIEX_MAX_ATTEMPTS: '1' }).submit(cueDocument([tratamFito(1)]), 'k'),
      );
      expect(e).toMatchObject({ status: 500, retryable: true });
      expect(e.message).toMatch(
        /ESQUEMA_NO_DISPONIBLE: the simulator cannot validate: cannot read the official CUE schema/,
      );
    } finally {
      await blind.stop();
    }
  });
});

describe('SIEX simulator process', () => {
  const script = join(findProjectRoot(__dirname), 'dist/local/siex-simulator/main.js');
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  (existsSync(script) ? it : it.skip)('prints its address, serves IUWS and stops on SIGTERM', async () => {
    child = spawn(process.execPath, [script, '--port', '0', '--processing-ms', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      const lines = createInterface({ input: child!.stdout! });
      lines.on('line', (line) => {
        const m = /^SIEX simulator listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
        if (m) resolve(m[1]);
      });
      child!.once('exit', (code) => reject(new Error(`simulator exited with ${code}`)));
    });
    const c = clientFor(url);
    const id = await c.submit(cueDocument([tratamFito(1)]), 'k');
    expect(await settled(c, id)).toEqual({
      state: 'done',
      results: [{ externalId: 1, section: 'TratamFito', ok: true, errors: [] }],
    });
    expect(await siexSimulatorControl(url).knobs()).toMatchObject({ processingMs: 0 });
    const exited = new Promise<number | null>((r) => child!.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  (existsSync(script) ? it : it.skip)(
    'runs as a service of the local stack and hands the runner its settings',
    async () => {
      const lines: string[] = [];
      const root = findProjectRoot(__dirname);
      const service = await siexSimulatorService({ processingMs: 0 }).start({
        projectRoot: root,
        storageConnectionString: '',
        inMemory: true,
        dataDir: root,
        log: (l) => lines.push(l),
      });
      try {
        expect(service.env).toEqual({
          SIEX_BASE_URL: service.url,
          SIEX_USERNAME: 'siex-local',
          SIEX_PASSWORD: 'siex-local',
        });
        const c = clientFor(service.env!.SIEX_BASE_URL);
        const id = await c.submit(cueDocument([tratamFito(2)]), 'k');
        expect((await settled(c, id)).results).toEqual([
          { externalId: 2, section: 'TratamFito', ok: true, errors: [] },
        ]);
        expect(lines.join('\n')).toContain(`SIEX simulator listening on ${service.url}`);
      } finally {
        await service.stop();
      }
      await expect(fetch(`${service.url}/_control`)).rejects.toThrow();
    },
  );
});
