/** @type {import('jest').Config} */
const transform = { '^.+\\.ts$': ['ts-jest', { isolatedModules: true, diagnostics: false }] };
// Type checking is done once by `tsc` before jest runs (local/bootstrap.js); ts-jest only transpiles.
module.exports = {
  testEnvironment: 'node',
  transform,
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 30000,
  maxWorkers: 2,
};
