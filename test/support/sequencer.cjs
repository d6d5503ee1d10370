const Sequencer = require('@jest/test-sequencer').default;

/**
 * The files that take minutes, longest first. Jest orders files by their last durations, which a fresh clone (CI) does
 * not have, and then by size, which put the longest file last: the run then waited for it alone for two minutes.
 * Started first, each runs beside the short files on the other worker.
 */
const LONG = ['e2e/demo-any-day.test.ts', 'e2e/export-faults.test.ts'];

const rank = (path) => {
  const i = LONG.findIndex((name) => path.replaceAll('\\', '/').endsWith(name));
  return i === -1 ? LONG.length : i;
};

class LongFirst extends Sequencer {
  async sort(tests) {
    const byDefault = await super.sort(tests);
    return [...byDefault].sort((a, b) => rank(a.path) - rank(b.path));
  }
}

module.exports = LongFirst;
