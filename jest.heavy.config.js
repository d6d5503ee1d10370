/** @type {import('jest').Config} */
// `npm run test:heavy`: the cases that take minutes or start whole processes of their own, run by CI after `npm test`
// (on Node 22), so that `npm test` stays within five minutes:
// - 10,000 registrations on one enclosure (location-history-bound);
// - the demo flow on 12 days of the year, a gateway started on each (demo-any-day, about 4 minutes);
// - the export's failure cases across real processes, which wait out SIEX's processing and the runner's 30-second
//   sweeper (export-faults, about 2.5 minutes), and the worker and batch SIGKILL cases (export-worker-crashes,
//   phyto-batch-crashes);
// - what a developer's tools run whole: `npm start` and its stop (npm-start-stop), the Postman collection through
//   newman (smoke-collection), the other languages' models (client-models), the packed TypeScript client under
//   strict consumers (client-package), the deployable bundle (deploy-package), and the nightly backup and its restore
//   (table-backup).
// After them local/bootstrap.js runs the integration and end-to-end suites (this file's base) again on two data
// accounts, TEST_STORAGE_ACCOUNTS=2 (issue 37).
// `npm test` keeps a proof of the registrations' bound that runs in seconds (test/unit/application-history.test.ts,
// "stays bounded"), the README's flow on one day (test/e2e/readme-flow.test.ts), the export's other cases
// (test/e2e/export-cue.test.ts), the collection's shape (test/unit/postman-collection.test.ts) and the restore over a
// live store (test/integration/restore-replace.test.ts).
const base = require('./jest.config');

module.exports = {
  ...base,
  roots: ['<rootDir>/test/heavy'],
  testPathIgnorePatterns: ['/node_modules/'],
  testTimeout: 600000,
};
