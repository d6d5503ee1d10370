/** @type {import('jest').Config} */
// `npm run test:unit` with no file named: every pure test, in a few groups of files that share a module registry
// (test/support/unit-groups.cjs says why), and on their own the files that change the registry or the timers.
const files = require('./jest.unit-files.config');
const { soloFiles } = require('./test/support/unit-groups.cjs');

module.exports = {
  ...files,
  roots: ['<rootDir>/test/unit', '<rootDir>/test/unit-groups'],
  testMatch: [...soloFiles().map((f) => `<rootDir>/test/unit/${f}`), '<rootDir>/test/unit-groups/*.group.ts'],
};
