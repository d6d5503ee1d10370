import { createLogger, LogLevel } from '../../shared/log/logger';
import { maskEmail, maskPersonalData, maskTaxId } from '../../shared/log/personal-data';

/** The structured events (shared/log): their line, the scope that follows async work, and what they never show. */

function recording() {
  const lines: { level: LogLevel; line: string; sink: string }[] = [];
  const sink = (name: string) => (level: LogLevel, line: string) => void lines.push({ level, line, sink: name });
  return { lines, sink, log: createLogger(sink('fallback')) };
}

describe('an event', () => {
  it('is one JSON line: its name first, the correlation id, its fields', () => {
    const { lines, log } = recording();
    log.event('siex.call', { jobId: 7, operation: 'crear', batch: 0, outcome: 'ok', durationMs: 12 }, 'warn');
    expect(lines).toEqual([
      {
        level: 'warn',
        sink: 'fallback',
        line: '{"event":"siex.call","correlationId":"","jobId":7,"operation":"crear","batch":0,"outcome":"ok","durationMs":12}',
      },
    ]);
  });

  it("goes to the scope's sink with its correlation id, through awaits, and an inner scope keeps what it leaves out", async () => {
    const { lines, sink, log } = recording();
    await log.within({ correlationId: 'req-1', sink: sink('invocation') }, async () => {
      await Promise.resolve();
      log.event('job.problem', { jobId: 1, detail: 'first' });
      await log.within({ correlationId: undefined }, async () => {
        await new Promise((resolve) => setImmediate(resolve));
        log.event('job.problem', { jobId: 1, detail: 'inner' });
      });
      log.within({ correlationId: 'job-row' }, () => log.event('job.problem', { jobId: 1, detail: 'row' }));
    });
    log.event('job.problem', { jobId: 1, detail: 'outside' });
    expect(lines.map((l) => [l.sink, (JSON.parse(l.line) as { correlationId: string }).correlationId])).toEqual([
      ['invocation', 'req-1'],
      ['invocation', 'req-1'],
      ['invocation', 'job-row'],
      ['fallback', ''],
    ]);
    expect(log.correlationId()).toBeUndefined();
  });

  it('never shows a tax id or a mailbox, wherever a text carries one', () => {
    const { lines, log } = recording();
    log.event('job.problem', {
      jobId: 3,
      detail:
        'refused by SIEX: E12: NIF 12345678Z del aplicador, NIE X1234567L, empresa B12345674; to ana.lopez@finca.es',
    });
    log.event('sweep.done', { queued: [1], dropped: [] });
    expect(lines[0].line).not.toMatch(/12345678Z|X1234567L|B12345674|ana\.lopez/);
    expect(JSON.parse(lines[0].line)).toMatchObject({
      detail: 'refused by SIEX: E12: NIF ***4567** del aplicador, NIE ****4567*, empresa ****4567*; to ***@finca.es',
    });
    expect(JSON.parse(lines[1].line)).toMatchObject({ queued: [1], dropped: [] });
  });
});

describe('masking', () => {
  it('keeps the four digits LOPDGDD DA 7ª allows of a DNI and an NIE, and the domain of an address', () => {
    expect(maskTaxId('12345678Z')).toBe('***4567**');
    expect(maskTaxId('X1234567L')).toBe('****4567*');
    expect(maskEmail('erp@example.org')).toBe('***@example.org');
  });

  it('leaves ids that are not tax ids alone: a UUID, a job key, a SIEX request id, an ISO date', () => {
    const text = '0f8fad5b-d9cb-469f-a165-70867728950e job-12-batch-0 REQ-000123 2026-05-14T10:00:00Z ES-12345678';
    expect(maskPersonalData(text)).toBe(text);
  });
});
