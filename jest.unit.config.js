/** @type {import('jest').Config} */
// `npm run test:unit`: the pure tests alone, for the edit-test loop. No compile step (swc transpiles each file),
// no Azurite, no runner; `npm test` runs these and everything else after a full build.
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
