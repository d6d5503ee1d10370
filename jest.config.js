/** @type {import('jest').Config} */
// Type checking is done by `tsc` beside the tests (local/bootstrap.js); jest only strips the types, file by file, with
// swc: native, with a twentieth of the CPU TypeScript's transpiler takes on our sources, and nothing to load in each
// worker. The emit is tsconfig.json's: ES2022 classes and fields, CommonJS with its interop, `import()` as a lazy
// require; `jest.mock` is hoisted above the imports, as ts-jest did. Source maps go to jest beside the code.
const transform = {
  '^.+\\.ts$': [
    '@swc/jest',
    {
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'commonjs' },
      sourceMaps: true,
    },
  ],
};
module.exports = {
  testEnvironment: 'node',
  transform,
  // zod with English alone, as deployed (test/support/resolver.cjs).
  resolver: '<rootDir>/test/support/resolver.cjs',
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
  // How long a worker may take to end once its files are done before jest kills it and warns of a leak. Its default,
  // 500 ms, is less than a loaded machine takes to tear a worker's process down: with nothing left but stdout and
  // stderr and its exit handlers run within 20 ms of the end, a worker on a machine at load 20 was gone only after
  // 700-800 ms, and jest warned of a leak there was not (jestjs/jest#11354). A real leak still shows: an idle
  // keep-alive socket (4-5 s) or a timer outlives this.
  workerGracefulExitTimeout: 3000,
  testSequencer: '<rootDir>/test/support/sequencer.cjs',
};
