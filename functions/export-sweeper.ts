import { InvocationContext, Timer } from '@azure/functions';
import { processApp } from '../shared/app/services';
import { sweepExportJobs } from '../shared/export/sweeper';
import { invocationSink } from '../shared/log/invocation-sink';
import { redrivePoisoned } from '../shared/notify/webhook-delivery';

/**
 * Every 30 seconds: export jobs that stopped moving are queued again (docs/architecture.md, "Crash guarantees"), and
 * webhook deliveries the delivery queue gave up on are put back on it.
 */
export async function exportSweeper(_timer: Timer, context: InvocationContext): Promise<void> {
  const app = processApp();
  await app.log.within({ sink: invocationSink(context) }, async () => {
    const swept = await sweepExportJobs(app.sweeper());
    if (swept.queued.length > 0 || swept.dropped.length > 0)
      app.log.event('sweep.done', swept, swept.queued.length > 0 ? 'warn' : 'info');
    await redrivePoisoned(app.redrive());
  });
}
