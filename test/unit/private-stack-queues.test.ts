import { APP_QUEUES } from '../../shared/store/queues';
import { taggedQueue } from '../helpers/export-private-stack';

/**
 * The fault tests' private runners (test/helpers/export-private-stack.ts) read queues of their own: every queue of the
 * app is renamed for a tag, its poison queue with it, so a delivery or a job queued through a private runner never
 * reaches the shared stack's runner.
 */
describe('a private stack tags every queue of the app', () => {
  it('renames each queue and its poison queue, and leaves other names alone', () => {
    expect(APP_QUEUES.map((q) => taggedQueue(q, 'a1'))).toEqual([
      'export-jobs-a1',
      'export-jobs-a1-poison',
      'webhook-deliveries-a1',
      'webhook-deliveries-a1-poison',
    ]);
    expect(new Set(APP_QUEUES.map((q) => taggedQueue(q, 'a1')))).not.toContain(APP_QUEUES[0]);
    expect(taggedQueue('export-jobs-poison-poison', 'a1')).toBe('export-jobs-a1-poison-poison');
    expect(taggedQueue('other-queue', 'a1')).toBe('other-queue');
  });
});
