/** @type {import('jest').Config} */
// Type checking is done once by `tsc` before jest runs (local/bootstrap.js); with isolatedModules in its tsconfig,
// ts-jest only transpiles each file.
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json', diagnostics: false }] };
module.exports = {
  testEnvironment: 'node',
  transform,
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // Minutes-long cases run apart, in `npm run test:heavy` (jest.heavy.config.js).
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/heavy/'],
  setupFiles: ['<rootDir>/test/support/functions-core.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  // A ceiling only a hang reaches: waits are on events, and a loaded machine (npm run test:stress) must make a test
  // slower, never fail it.
  testTimeout: 120000,
  maxWorkers: 2,
  testSequencer: '<rootDir>/test/support/sequencer.cjs',
};
