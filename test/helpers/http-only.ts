import { disabledSetting } from '../../local/runner/runner';

/**
 * Settings for a runner of a test's own on the shared stack's storage that must serve HTTP only: the app's queue and
 * timer functions disabled, as the host disables a function. Otherwise it competes for the shared export queue and
 * sweeps the shared jobs, so another test file's export may land on a runner whose storage the test has broken.
 */
export const HTTP_ONLY: Record<string, string> = Object.fromEntries(
  ['exportWorker', 'exportPoison', 'exportSweeper'].map((name) => [disabledSetting(name), 'true']),
);
