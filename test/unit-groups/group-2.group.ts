import { runUnitGroup } from '../support/run-unit-group';

// One of `npm run test:unit`'s groups of test/unit (test/support/unit-groups.cjs).
runUnitGroup(2);
