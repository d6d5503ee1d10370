import path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { UNIT, unitGroups } = require('./unit-groups.cjs') as {
  UNIT: string;
  unitGroups: () => string[][];
};

/**
 * Registers the tests of one group of test/unit (./unit-groups.cjs says why they run in groups), each file's under a
 * describe named after it: a file's own beforeAll, afterEach and the like stay with its own tests, and a report names
 * the file a failing test is in.
 */
export function runUnitGroup(group: number): void {
  for (const file of unitGroups()[group - 1] ?? [])
    describe(file, () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require(path.join(UNIT, file));
    });
}
