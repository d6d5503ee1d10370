const Sequencer = require('@jest/test-sequencer').default;

/**
 * The order the test files start in, so that the two workers end together instead of one waiting alone for a long
 * file. Jest orders files by their last durations, which it keeps in its cache; a fresh clone (CI) has none, and jest
 * then orders by size, which put minutes-long files last. So:
 * - the longest files start first, longest first (LONG, as a run on a fresh clone timed them; those that take
 *   minutes are in `npm run test:heavy`): each runs beside the short files on the other worker;
 * - files whose duration jest does not know yet go by their folder, the end-to-end and integration files (5-20 s
 *   each, with the stack and real processes) before the pure tests (most under a second), which fill the last gaps;
 *   within a folder, by size as jest had them;
 * - files whose duration jest knows follow, longest first, as jest orders them.
 */
const LONG = [
  // npm run test:heavy (jest.heavy.config.js): the 10,000 registrations take longest by far.
  'heavy/location-history-bound.test.ts',
  'heavy/demo-any-day.test.ts',
  'heavy/export-faults.test.ts',
  'heavy/smoke-collection.test.ts',
  'heavy/client-models.test.ts',
  'heavy/npm-start-stop.test.ts',
  'heavy/runner.test.ts',
  'heavy/api-docs.test.ts',
  'heavy/start-services-only.test.ts',
  'heavy/runner-redaction.test.ts',
  // npm test
  'integration/catalog-register-import.test.ts',
  'integration/export-failed-job.test.ts',
  'e2e/export-cue.test.ts',
  'e2e/key-rotation.test.ts',
  'integration/restore-replace.test.ts',
];
const FOLDERS = ['heavy/', 'e2e/', 'integration/', 'infra/', 'unit/'];

const relative = (test) => test.path.replaceAll('\\', '/');

const longRank = (test) => {
  const i = LONG.findIndex((name) => relative(test).endsWith(name));
  return i === -1 ? LONG.length : i;
};

const folderRank = (test) => {
  const i = FOLDERS.findIndex((folder) => relative(test).includes(`/test/${folder}`));
  return i === -1 ? FOLDERS.length : i;
};

class LongFirst extends Sequencer {
  async sort(tests) {
    // jest's order, which also sets each file's last duration where its cache has one
    const byDefault = await super.sort(tests);
    const unknown = byDefault.filter((t) => t.duration == null).sort((a, b) => folderRank(a) - folderRank(b));
    const known = byDefault.filter((t) => t.duration != null);
    return [...unknown, ...known].sort((a, b) => longRank(a) - longRank(b));
  }
}

module.exports = LongFirst;
