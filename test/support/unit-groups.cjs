const fs = require('node:fs');
const path = require('node:path');

/**
 * `npm run test:unit` runs the pure tests in a few groups, each one jest test file that requires its share of
 * test/unit (test/unit-groups/group-<n>.group.ts), instead of 110 files each with a module registry of its own. Per
 * file, jest loaded its own expect, snapshot and circus modules again and the file loaded zod, luxon and the shared
 * modules again: profiled in band, that was about half of the run's CPU (27 s in all; 15 s grouped). `npm test` still
 * runs every unit file on its own, so a test that leans on another file's module state fails there.
 *
 * A file that changes the module registry or the timers for the whole file (jest.mock, resetModules, fake timers)
 * would change them for its group, so it runs on its own in both.
 */
const UNIT = path.join(__dirname, '..', 'unit');
const GROUPS = 4;
const REGISTRY_CHANGES = /\bjest\.(mock|doMock|unmock|resetModules|isolateModules|useFakeTimers|replaceProperty)\(/;

/** Every unit test file, by name, sorted. */
function unitFiles() {
  return fs
    .readdirSync(UNIT)
    .filter((f) => f.endsWith('.test.ts'))
    .sort();
}

/** The unit files that run on their own: those that change the module registry or the timers. */
function soloFiles() {
  return unitFiles().filter((f) => REGISTRY_CHANGES.test(fs.readFileSync(path.join(UNIT, f), 'utf8')));
}

/**
 * The other files in GROUPS groups of about equal size in bytes, a stand-in for their CPU that needs no earlier run:
 * largest first, each into the group with the fewest bytes so far (ties to the lower group), so the split is the same
 * on every machine. Jest hands the groups to its two workers as each finishes one.
 */
function unitGroups(sizes = fileSizes(), count = GROUPS) {
  const solo = new Set(soloFiles());
  const groups = Array.from({ length: count }, () => ({ bytes: 0, files: [] }));
  const files = Object.keys(sizes)
    .filter((f) => !solo.has(f))
    .sort((a, b) => sizes[b] - sizes[a] || a.localeCompare(b));
  for (const file of files) {
    const lightest = groups.reduce((min, g) => (g.bytes < min.bytes ? g : min));
    lightest.bytes += sizes[file];
    lightest.files.push(file);
  }
  return groups.map((g) => g.files.sort());
}

function fileSizes() {
  return Object.fromEntries(unitFiles().map((f) => [f, fs.statSync(path.join(UNIT, f)).size]));
}

module.exports = { UNIT, GROUPS, unitFiles, soloFiles, unitGroups };
