/** @type {import('jest').Config} */
// `npm run test:heavy`: the cases that take minutes (10,000 registrations on one enclosure), run by CI after
// `npm test`. `npm test` keeps a proof of each bound that runs in seconds (test/unit/application-history.test.ts, "stays bounded").
const base = require('./jest.config');

module.exports = {
  ...base,
  roots: ['<rootDir>/test/heavy'],
  testPathIgnorePatterns: ['/node_modules/'],
  testSequencer: undefined,
  testTimeout: 600000,
};
