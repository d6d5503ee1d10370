/** @type {import('jest').Config} */
// `npm run test:heavy`: the cases that take minutes, run by CI after `npm test` (on Node 22): 10,000 registrations on
// one enclosure; the demo flow on 12 days of the year, a gateway started on each (demo-any-day, about 4 minutes); and
// the export's failure cases across real processes, which wait out SIEX's processing and the runner's 30-second
// sweeper (export-faults, about 2.5 minutes).
// `npm test` keeps a proof of the registrations' bound that runs in seconds (test/unit/application-history.test.ts,
// "stays bounded"), the README's flow on one day (test/e2e/readme-flow.test.ts) and the export's other cases
// (test/e2e/export-cue.test.ts).
const base = require('./jest.config');

module.exports = {
  ...base,
  roots: ['<rootDir>/test/heavy'],
  testPathIgnorePatterns: ['/node_modules/'],
  testSequencer: undefined,
  testTimeout: 600000,
};
