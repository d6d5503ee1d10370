import { Job, JobItem, JobMeta } from '../../shared/export/job';
import {
  finalStatus,
  isSettled,
  JOB_STATUS_ID,
  jobStatuses,
  percentage,
  Transition,
  TRANSITIONS,
} from '../../shared/export/job-status';
import { jobView, resultOf } from '../../shared/http/job-answers';
import { outcomeMail, reconciledMail } from '../../shared/export/outcome-email';
import { SettledRecord } from '../../shared/export/job-outcome';
import { publicFailure } from '../../shared/export/job-errors';
import { IuwsError } from '../../shared/siex/iuws-client';
import { MailError } from '../../shared/email/mailer';
import { isRetryable } from '../../shared/export/worker';
import { mailOperationId } from '../../shared/export/notifications';

/** Issue 4's pure parts: statuses and percentage, the JobAsync and result views, the outcome e-mail, retry policy. */

function meta(o: Partial<JobMeta> = {}): JobMeta {
  return {
    jobId: 42,
    kind: 'export',
    clientId: 'c1',
    notifyEmail: 'erp@example.org',
    farmId: 7,
    rea: 'R7',
    agrifarmId: 'urn:ngsi-ld:AgriFarm:7',
    status: 'EnProceso',
    inidate: '14-05-2026 10:00:00',
    createdAt: 0,
    total: 3,
    settled: 1,
    accepted: 1,
    error: null,
    lastError: null,
    emailSent: false,
    emailError: '',
    notifyWebhook: '',
    webhooks: [],
    reconcile: 'none',
    correlationId: '',
    ...o,
  };
}

/**
 * The records of a treatments' job as they settled, written as its result lists them: the e-mail is built from the
 * records themselves (shared/export/job-outcome.ts), not from the interface's answer.
 */
function settled(result: {
  data: { result: string; id: number }[];
  error: { result: string; id: number; code: string; message: string }[];
}): SettledRecord[] {
  const ref = (id: number) => ({ type: 'AgriPhytosanitary', id });
  return [
    ...result.data.map(({ id }): SettledRecord => ({ ref: ref(id), outcome: { state: 'ok' } })),
    ...result.error.map(({ id, code, message }): SettledRecord => ({
      ref: ref(id),
      outcome: { state: 'error', code, message },
    })),
  ];
}

function job(items: Partial<JobItem>[], m: Partial<JobMeta> = {}): Job {
  return {
    meta: { ...meta(m), etag: '*' },
    items: new Map(
      items.map((i, n) => [
        `${i.type ?? 'AgriPhytosanitary'}:${i.recordId ?? n}`,
        {
          type: 'AgriPhytosanitary',
          recordId: n,
          recordRowKey: `k${n}`,
          siexBlocks: [],
          state: 'pending',
          code: '',
          message: '',
          ...i,
        },
      ]),
    ),
    batches: [],
  };
}

describe('job statuses', () => {
  it('are the five named statuses, 3 to 5 settled', () => {
    expect(jobStatuses.map((s) => [JOB_STATUS_ID[s], s])).toEqual([
      [1, 'Iniciando'],
      [2, 'EnProceso'],
      [3, 'FinalizadoCompleto'],
      [4, 'FinalizadoConErrores'],
      [5, 'Fallido'],
    ]);
    expect(jobStatuses.map(isSettled)).toEqual([false, false, true, true, true]);
  });

  it('move only forward: Iniciando to EnProceso to a settled status, or to Fallido; a settled job never moves', () => {
    expect(TRANSITIONS).toEqual({
      Iniciando: ['EnProceso', 'Fallido'],
      EnProceso: ['FinalizadoCompleto', 'FinalizadoConErrores', 'Fallido'],
      FinalizadoCompleto: [],
      FinalizadoConErrores: [],
      Fallido: [],
    });
    const moves: Transition[] = [
      { from: 'Iniciando', to: 'EnProceso' },
      // @ts-expect-error a job cannot settle without having run (tsc checks this file before jest runs)
      { from: 'Iniciando', to: 'FinalizadoCompleto' },
      // @ts-expect-error nor move again once settled
      { from: 'Fallido', to: 'EnProceso' },
    ];
    expect(moves.map((m) => (TRANSITIONS[m.from] as readonly string[]).includes(m.to))).toEqual([true, false, false]);
  });

  it('settle complete only when every record was accepted', () => {
    expect([finalStatus(3, 3), finalStatus(2, 3), finalStatus(0, 3)]).toEqual([
      'FinalizadoCompleto',
      'FinalizadoConErrores',
      'FinalizadoConErrores',
    ]);
  });

  it('count percentage as whole settled hundredths, rounded down (100 only when all are settled)', () => {
    expect([percentage(0, 3), percentage(1, 3), percentage(2, 3), percentage(3, 3)]).toEqual([0, 33, 66, 100]);
    expect(percentage(999, 1000)).toBe(99);
    expect(percentage(0, 0)).toBe(100);
  });
});

describe('jobView (JobAsync)', () => {
  it('has the spec’s fields: string ids, status object, integer percentage, error null while not failed', () => {
    expect(jobView(meta())).toEqual({
      type: 'JobAsync',
      id: '42',
      inidate: '14-05-2026 10:00:00',
      status: { type: 'JobStatus', id: '2', name: 'EnProceso' },
      percentage: 33,
      error: null,
    });
  });

  it('gives a failed job’s { code, message }', () => {
    const v = jobView(meta({ status: 'Fallido', error: { code: 'SIEX_UNAVAILABLE', message: 'down' } }));
    expect([v.status, v.error]).toEqual([
      { type: 'JobStatus', id: '5', name: 'Fallido' },
      { code: 'SIEX_UNAVAILABLE', message: 'down' },
    ]);
  });
});

describe('resultOf (job result)', () => {
  it('puts accepted records in data, the others in error with their code, by record id; unsettled ones NOT_PROCESSED', () => {
    const r = resultOf(
      job([
        { recordId: 30, state: 'ok' },
        { recordId: 10, state: 'error', code: 'SIM_RECHAZADO', message: 'refused' },
        { recordId: 20, state: 'ok' },
        { recordId: 40, state: 'pending' },
      ]),
    );
    expect(r).toEqual({
      data: [
        { result: 'ok', id: 20, urn: 'urn:ngsi-ld:AgriPhytosanitary:20' },
        { result: 'ok', id: 30, urn: 'urn:ngsi-ld:AgriPhytosanitary:30' },
      ],
      error: [
        { result: 'error', id: 10, urn: 'urn:ngsi-ld:AgriPhytosanitary:10', code: 'SIM_RECHAZADO', message: 'refused' },
        {
          result: 'error',
          id: 40,
          urn: 'urn:ngsi-ld:AgriPhytosanitary:40',
          code: 'NOT_PROCESSED',
          message: expect.stringContaining('failed'),
        },
      ],
    });
  });
});

describe('outcomeMail', () => {
  it('names the job, the farm, the final status and every record’s outcome', () => {
    const m = outcomeMail(
      meta({ status: 'FinalizadoConErrores', settled: 3, accepted: 1 }),
      settled({
        data: [{ result: 'ok', id: 5 }],
        error: [
          {
            result: 'error',
            id: 6,
            code: 'MISSING_DATA',
            message: 'not sent to SIEX: missing efficacy (Eficacia)',
          },
          { result: 'error', id: 7, code: 'SIM_RECHAZADO', message: 'refused' },
        ],
      }),
      [],
    );
    expect(m.subject).toBe('SIEX export job 42: FinalizadoConErrores');
    expect(m.text).toContain('Export job 42 for farm urn:ngsi-ld:AgriFarm:7 finished: FinalizadoConErrores.');
    expect(m.text).toContain('Records accepted by SIEX: 1 of 3.');
    expect(m.text).toContain('urn:ngsi-ld:AgriPhytosanitary:5: ok');
    expect(m.text).toContain(
      'urn:ngsi-ld:AgriPhytosanitary:6: MISSING_DATA: not sent to SIEX: missing efficacy (Eficacia)',
    );
    expect(m.text).toContain('urn:ngsi-ld:AgriPhytosanitary:7: SIM_RECHAZADO: refused');
    expect(m.html).toContain('<b>FinalizadoConErrores</b>');
    expect(m.text).not.toContain('could not run');
  });

  it('names a deletion job as such, and says what SIEX accepting a deletion does', () => {
    const m = outcomeMail(
      meta({ kind: 'deletion', status: 'FinalizadoCompleto', total: 1, settled: 1, accepted: 1 }),
      settled({ data: [{ result: 'ok', id: 5 }], error: [] }),
      [],
    );
    expect(m.subject).toBe('SIEX deletion job 42: FinalizadoCompleto');
    expect(m.text).toContain('Deletion job 42 for farm urn:ngsi-ld:AgriFarm:7 finished: FinalizadoCompleto.');
    expect(m.text).toContain('deleted in the gateway too');
  });

  it('says why a failed job could not run, and escapes what SIEX wrote in the HTML', () => {
    const m = outcomeMail(
      meta({ status: 'Fallido', error: { code: 'SIEX_UNAVAILABLE', message: 'answered <503> & "gave up"' } }),
      settled({
        data: [],
        error: [
          {
            result: 'error',
            id: 9,
            code: 'NOT_PROCESSED',
            message: '<script>alert(1)</script>',
          },
        ],
      }),
      [],
    );
    expect(m.subject).toBe('SIEX export job 42: Fallido');
    expect(m.text).toContain('The job could not run: SIEX_UNAVAILABLE: answered <503> & "gave up"');
    expect(m.html).toContain('answered &lt;503&gt; &amp; &quot;gave up&quot;');
    expect(m.html).not.toContain('<script>');
    expect(m.html).toContain('&lt;script&gt;');
  });
});

describe('the e-mails of unknown outcomes', () => {
  const unknown = {
    result: 'error' as const,
    id: 8,
    code: 'OUTCOME_UNKNOWN',
    message: "may have reached SIEX: it was sent, but SIEX's answer never came back",
  };

  it('say plainly which records may be in SIEX, why, and that they are blocked until the gateway knows', () => {
    const m = outcomeMail(
      meta({ status: 'Fallido', error: { code: 'SIEX_TIMEOUT', message: 'SIEX did not answer in time' } }),
      settled({
        data: [],
        error: [
          unknown,
          {
            result: 'error',
            id: 9,
            code: 'NOT_PROCESSED',
            message: 'never sent',
          },
        ],
      }),
      [],
    );
    expect(m.text).toContain('Records accepted by SIEX: 0 of 3.');
    expect(m.text).toContain('Outcome not known: 1 (OUTCOME_UNKNOWN)');
    expect(m.text).toContain('cannot be exported again');
    expect(m.text).toContain(`urn:ngsi-ld:AgriPhytosanitary:8: OUTCOME_UNKNOWN: ${unknown.message}`);
    expect(m.html).toContain('Outcome not known: 1');
  });

  it('and, once every outcome is known, a second e-mail with the records as they stand now', () => {
    const m = reconciledMail(
      meta({ status: 'Fallido', accepted: 1 }),
      settled({
        data: [{ result: 'ok', id: 8 }],
        error: [
          {
            result: 'error',
            id: 9,
            code: 'NOT_PROCESSED',
            message: 'never sent',
          },
        ],
      }),
      [],
    );
    expect(m.subject).toBe('SIEX export job 42: every outcome is known now');
    expect(m.text).toContain('Records accepted by SIEX: 1 of 3.');
    expect(m.text).not.toContain('Outcome not known');
    expect(m.text).toContain('urn:ngsi-ld:AgriPhytosanitary:8: ok');
  });
});

describe('publicFailure', () => {
  it('gives a stable code and plain words, never what the error itself says', () => {
    const vault = '@Microsoft.KeyVault(VaultName=kv-siex-prod-7f3a;SecretName=siex-username)';
    const cases: [unknown, string][] = [
      [
        new IuwsError(`SIEX_USERNAME is a Key Vault reference the platform could not resolve (${vault})`, {
          code: 'SIEX_NOT_CONFIGURED',
        }),
        'SIEX_NOT_CONFIGURED',
      ],
      [
        new IuwsError('SIEX POST /crear: cannot reach https://siex.internal:8443 (ECONNREFUSED)', {
          code: 'SIEX_UNREACHABLE',
        }),
        'SIEX_UNREACHABLE',
      ],
      [
        Object.assign(new Error('connect ECONNREFUSED 10.0.0.4:443'), { name: 'RestError', code: 'ECONNREFUSED' }),
        'STORAGE_UNAVAILABLE',
      ],
      [new TypeError("Cannot read properties of undefined (reading 'farmId')"), 'WORKER_ERROR'],
      [Object.assign(new Error('x'), { code: 'SOMETHING_INTERNAL' }), 'WORKER_ERROR'],
    ];
    for (const [e, code] of cases) {
      const shown = publicFailure(e);
      expect(shown.code).toBe(code);
      expect(shown.message).not.toMatch(/KeyVault|kv-siex|https?:|ECONN|\d+\.\d+\.\d+\.\d+|undefined/);
    }
  });
});

describe('mailOperationId', () => {
  it('is a UUID, the same for a job every time, and another for another job or purpose', () => {
    const id = mailOperationId(42);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(mailOperationId(42)).toBe(id);
    expect(mailOperationId(43)).not.toBe(id);
    expect(mailOperationId(42, 'reconciled')).not.toBe(id);
    expect(mailOperationId(42, 'reconciled')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});

describe('isRetryable', () => {
  it('gives the message back to the queue unless the error says retrying cannot help', () => {
    expect(isRetryable(new Error('network'))).toBe(true);
    expect(isRetryable(new IuwsError('503', { code: 'SIEX_UNAVAILABLE' }))).toBe(true);
    expect(isRetryable(new IuwsError('credentials', { code: 'SIEX_AUTH' }))).toBe(false);
    expect(isRetryable(new MailError('no such address', { retryable: false }))).toBe(false);
    expect(isRetryable(null)).toBe(true);
  });

  it('reads the error classes, not shapes: an object that merely says it is not retryable is retried', () => {
    expect(isRetryable(Object.assign(new Error('credentials'), { retryable: false }))).toBe(true);
  });
});
