import { ERROR_CODES, ErrorCode, violation } from '../../shared/domain/errors';
import { HTTP_STATUS, statusOf } from '../../shared/http/error-status';

/**
 * Every code has a status by construction (`HTTP_STATUS satisfies Record<ErrorCode, number>`, and `violation()` takes
 * only an ErrorCode): what is left to test is the table's content and how a list of violations earns its status.
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
    const v = (code: ErrorCode) => violation(code, '', '');
    expect(statusOf([v('INVALID_VALUE')])).toBe(400);
    expect(statusOf([v('NIF_INVALID'), v('DOSE_ABOVE_MAX'), v('INVALID_DATE')])).toBe(422);
    expect(statusOf([v('DOSE_ABOVE_MAX'), v('IDCP_NOT_FOUND'), v('NIF_INVALID')])).toBe(404);
    expect(statusOf([v('IDCP_NOT_FOUND'), v('DOSE_ABOVE_MAX')])).toBe(404);
    expect(statusOf([v('RECORD_IN_EXPORT')])).toBe(409);
    expect(statusOf([v('CONCURRENT_UPDATE')])).toBe(503);
    expect(statusOf([])).toBe(400);
  });
});
