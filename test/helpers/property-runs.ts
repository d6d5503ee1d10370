/**
 * How many cases fast-check tries for a property: every one in `npm test` (what CI runs), a quarter of them in
 * `npm run test:unit`, the edit-test loop, whose global setup asks for that (test/support/unit-global-setup.ts). The
 * property and its seed are the same in both; the quick run tries fewer of the same generator's cases.
 */
const QUICK_VARIABLE = 'SIEX_TEST_QUICK_PROPERTIES';

export function propertyRuns(full: number): number {
  return process.env[QUICK_VARIABLE] === '1' ? Math.max(10, Math.ceil(full / 4)) : full;
}

/** For the unit run's global setup: the workers jest starts after it read the quick count. */
export function askForQuickProperties(): void {
  process.env[QUICK_VARIABLE] = '1';
}
