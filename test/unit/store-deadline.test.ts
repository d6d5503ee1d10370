import { isStorageUnavailable } from '../../shared/store/azure-sdk';
import { DeadlineExceeded, deadlineSignal, tryTimeoutMs, withDeadline } from '../../shared/store/deadline';

const restError = (fields: { statusCode?: number; code?: string }) =>
  Object.assign(new Error('storage said no'), { name: 'RestError', ...fields });

describe('the storage deadline of a request', () => {
  // Jest's clock: time moves by the steps the test takes, so "the time left" is exact, however slow the machine.
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('bounds each try by the time left, and refuses a call once the budget is spent', async () => {
    expect(tryTimeoutMs(10_000)).toBe(10_000);
    expect(deadlineSignal()).toBeUndefined();
    await withDeadline(3_000, async () => {
      expect(tryTimeoutMs(10_000)).toBe(3_000);
      jest.advanceTimersByTime(1_000);
      expect(tryTimeoutMs(10_000)).toBe(2_000);
      expect(tryTimeoutMs(500)).toBe(500);
      expect(deadlineSignal()?.aborted).toBe(false);
    });
    await withDeadline(1, async () => {
      jest.advanceTimersByTime(1);
      expect(() => tryTimeoutMs(10_000)).toThrow(DeadlineExceeded);
      expect(() => deadlineSignal()).toThrow(DeadlineExceeded);
    });
  });

  it('follows the work through its awaits, and not into work started elsewhere', async () => {
    const outside = new Promise<number>((resolve) => setTimeout(() => resolve(tryTimeoutMs(10_000)), 20));
    const inside = withDeadline(1_000, async () => {
      await new Promise((r) => setTimeout(r, 10));
      return tryTimeoutMs(10_000);
    });
    await jest.advanceTimersByTimeAsync(20);
    expect(await inside).toBe(990);
    expect(await outside).toBe(10_000);
  });
});

describe('isStorageUnavailable', () => {
  it('says yes to an outage, an overload or a time-out', () => {
    for (const e of [
      restError({ statusCode: 503 }),
      restError({ statusCode: 500 }),
      restError({ statusCode: 408 }),
      restError({ statusCode: 429 }),
      restError({ code: 'ECONNREFUSED' }),
      restError({ code: 'ECONNRESET' }),
      restError({ code: 'REQUEST_SEND_ERROR' }),
      Object.assign(new Error('aborted'), { name: 'AbortError' }),
      new DeadlineExceeded(),
    ])
      expect([e.message, (e as { statusCode?: number }).statusCode, isStorageUnavailable(e)]).toEqual([
        e.message,
        (e as { statusCode?: number }).statusCode,
        true,
      ]);
  });

  it('says no to what retrying cannot fix: a conflict, a bad request, a bug', () => {
    for (const e of [
      restError({ statusCode: 409 }),
      restError({ statusCode: 412 }),
      restError({ statusCode: 400 }),
      restError({ statusCode: 501 }),
      new TypeError('x is undefined'),
      'not even an error',
    ])
      expect(isStorageUnavailable(e)).toBe(false);
  });
});
