import { InvocationContext, Timer } from '@azure/functions';
import { processApp } from '../shared/app/services';
import { sweepExportJobs } from '../shared/export/sweeper';

/** Every 30 seconds: export jobs that stopped moving are queued again (docs/architecture.md, "Crash guarantees"). */
export async function exportSweeper(_timer: Timer, context: InvocationContext): Promise<void> {
  const { queued, dropped } = await sweepExportJobs(processApp().sweeper());
  if (queued.length > 0) context.warn(`export jobs queued again: ${queued.join(', ')}`);
  if (dropped.length > 0) context.log(`watch rows of export jobs never created, dropped: ${dropped.join(', ')}`);
}
