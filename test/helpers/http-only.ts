import { RunnerProcess, RunnerProcessOptions, startRunnerProcess } from '../../local/runner/process';
import { disabledSetting } from '../../local/runner/runner';

/** The app's functions that are not HTTP-triggered, disabled as the host disables a function. */
const HTTP_ONLY: Record<string, string> = Object.fromEntries(
  ['exportWorker', 'exportPoison', 'webhookDelivery', 'exportSweeper', 'tableBackup', 'siexCertificateCheck'].map(
    (name) => [disabledSetting(name), 'true'],
  ),
);

/**
 * Starts a runner of a test's own on the shared stack's storage that serves HTTP only. With its queue and timer
 * functions running, it would compete for the shared export queue and sweep the shared jobs, so another test file's
 * export could land on a runner whose storage the test has broken. Its start-up listing is checked, so a background
 * function added to the app and not here fails at once rather than by stealing another test's job.
 */
export async function startHttpOnlyRunner(options: RunnerProcessOptions): Promise<RunnerProcess> {
  const lines: string[] = [];
  const runner = await startRunnerProcess({
    ...options,
    env: { ...options.env, ...HTTP_ONLY },
    onLine: (line, stream) => {
      lines.push(line);
      options.onLine?.(line, stream);
    },
  });
  const background = lines.filter((line) => /: \[(queue|timer)\] /.test(line));
  if (background.length > 0) {
    await runner.stop();
    throw new Error(`the runner still serves background functions; disable them too:\n${background.join('\n')}`);
  }
  return runner;
}
