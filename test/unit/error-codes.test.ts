import { CORE_ERROR_CODES, ErrorCode, kindErrors, MAX_ERROR_CODE_LENGTH, Violation } from '../../shared/domain/errors';
import { statusOf } from '../../shared/http/error-status';
import { ERROR_CODES, HTTP_STATUS } from '../../shared/app/error-codes';

/**
 * Every core code has a status by construction (the edge's `HTTP_STATUS satisfies Record<CoreErrorCode, number>`, and
 * `violation()` takes only a CoreErrorCode), and every kind's code carries its own: what is left to test is the app's
 * whole table, how a list of violations earns its status, and that a code means one thing.
 */
const codes = Object.keys(ERROR_CODES) as ErrorCode[];

describe('error codes', () => {
  it('are UPPER_SNAKE, with a meaning and an HTTP error status', () => {
    for (const code of codes) {
      expect(code).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
      expect(ERROR_CODES[code].length).toBeGreaterThan(5);
      expect(HTTP_STATUS[code]).toBeGreaterThanOrEqual(400);
      expect(HTTP_STATUS[code]).toBeLessThan(600);
    }
    expect(Object.keys(HTTP_STATUS).sort()).toEqual([...codes].sort());
  });

  it("map the spec's cases to the spec's statuses, with the spec's messages", () => {
    expect([HTTP_STATUS.MISSING_CREDENTIALS, HTTP_STATUS.INVALID_CREDENTIALS, HTTP_STATUS.EXPIRED_CREDENTIALS]).toEqual(
      [401, 401, 401],
    );
    expect(HTTP_STATUS.REQUIRED).toBe(400);
    expect(HTTP_STATUS.PAYLOAD_TOO_LARGE).toBe(413);
    expect(HTTP_STATUS.RATE_LIMITED).toBe(429);
    expect(HTTP_STATUS.FARM_NOT_FOUND).toBe(404);
    expect([HTTP_STATUS.AGRIFARM_NOT_FOUND, ERROR_CODES.AGRIFARM_NOT_FOUND]).toEqual([
      404,
      'agrifarmId not found or not accessible',
    ]);
    expect([HTTP_STATUS.PAGINATION_PAIR, ERROR_CODES.PAGINATION_PAIR]).toEqual([
      400,
      'page and page_size must be provided together',
    ]);
  });

  it('rank a mixed list as the spec does: an unknown crop location (404) over business rules (422) over form (400)', () => {
    const v = (code: ErrorCode): Violation => ({ code, path: '', message: '' });
    expect(statusOf([v('INVALID_VALUE')])).toBe(400);
    expect(statusOf([v('NIF_INVALID'), v('DOSE_ABOVE_MAX'), v('INVALID_DATE')])).toBe(422);
    expect(statusOf([v('DOSE_ABOVE_MAX'), v('IDCP_NOT_FOUND'), v('NIF_INVALID')])).toBe(404);
    expect(statusOf([v('IDCP_NOT_FOUND'), v('DOSE_ABOVE_MAX')])).toBe(404);
    expect(statusOf([v('RECORD_IN_EXPORT')])).toBe(409);
    expect(statusOf([v('CONCURRENT_UPDATE')])).toBe(503);
    expect(statusOf([])).toBe(400);
  });

  it('fit the largest answer: every code of the whole table is at most MAX_ERROR_CODE_LENGTH', () => {
    for (const code of codes) expect([code, code.length <= MAX_ERROR_CODE_LENGTH]).toEqual([code, true]);
  });

  it("are answered with their kind's status, and a code no table declares as the gateway's own mistake", () => {
    expect(statusOf([{ code: 'MIX_TOO_LARGE' }])).toBe(400);
    expect(statusOf([{ code: 'IRRIGATION_UNIT' }])).toBe(422);
    expect(statusOf([{ code: 'NO_SUCH_CODE' }])).toBe(500);
  });

  it('mean one thing: a kind may not declare a core code, or a code another kind declared otherwise', () => {
    expect(() => kindErrors({ REQUIRED: { status: 400, text: 'another meaning' } })).toThrow(/REQUIRED/);
    expect(() => kindErrors({ IRRIGATION_UNIT: { status: 400, text: 'another meaning' } })).toThrow(/IRRIGATION_UNIT/);
    expect(() => kindErrors({ lower_case: { status: 400, text: 'not UPPER_SNAKE' } })).toThrow(/lower_case/);
    expect(Object.keys(ERROR_CODES).slice(0, Object.keys(CORE_ERROR_CODES).length)).toEqual(
      Object.keys(CORE_ERROR_CODES),
    );
  });
});
