/** @type {import('jest').Config} */
// `npm run test:unit -- <file or pattern>`: the pure tests named, each file on its own, for the edit-test loop. No
// compile step (swc transpiles each file), no Azurite, no runner; `npm test` runs these and everything else after a
// full build. With no file named, `npm run test:unit` runs them all in groups (jest.unit.config.js).
const base = require('./jest.config');

module.exports = {
  transform: base.transform,
  resolver: base.resolver,
  testEnvironment: base.testEnvironment,
  maxWorkers: base.maxWorkers,
  workerGracefulExitTimeout: base.workerGracefulExitTimeout,
  roots: ['<rootDir>/test/unit'],
  testMatch: base.testMatch,
  // The catalogues, parsed once for the run (test/support/parsed-catalogues.ts).
  globalSetup: '<rootDir>/test/support/unit-global-setup.ts',
  globalTeardown: base.globalTeardown,
};
