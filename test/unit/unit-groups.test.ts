import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const groups = require('../support/unit-groups.cjs') as {
  GROUPS: number;
  unitFiles: () => string[];
  soloFiles: () => string[];
  unitGroups: (sizes?: Record<string, number>, count?: number) => string[][];
};

/** `npm run test:unit` runs test/unit in groups (test/support/unit-groups.cjs): none may be lost or run twice. */
describe("npm run test:unit's groups", () => {
  it('hold every unit file once, in a group or on its own', () => {
    const placed = [...groups.unitGroups().flat(), ...groups.soloFiles()].sort();
    expect(placed).toEqual(groups.unitFiles());
    expect(groups.unitFiles()).toContain('unit-groups.test.ts');
  });

  it('leave to themselves the files that change the module registry or the timers', () => {
    const changes = groups
      .unitFiles()
      .filter((f) => /jest\.(mock|resetModules|useFakeTimers)\(/.test(readFileSync(path.join(__dirname, f), 'utf8')));
    expect(changes.length).toBeGreaterThan(0);
    expect(groups.soloFiles()).toEqual(changes);
    for (const file of changes) expect(groups.unitGroups().flat()).not.toContain(file);
  });

  it('split by size, largest first into the lightest group, the same on every machine', () => {
    expect(groups.unitGroups({ 'a.test.ts': 5, 'b.test.ts': 4, 'c.test.ts': 3, 'd.test.ts': 1 }, 2)).toEqual([
      ['a.test.ts', 'd.test.ts'],
      ['b.test.ts', 'c.test.ts'],
    ]);
  });

  it('each have their file, which runs its own group', () => {
    const dir = path.join(__dirname, '..', 'unit-groups');
    const files = readdirSync(dir).sort();
    expect(files).toEqual(Array.from({ length: groups.GROUPS }, (_, i) => `group-${i + 1}.group.ts`));
    files.forEach((f, i) => expect(readFileSync(path.join(dir, f), 'utf8')).toContain(`runUnitGroup(${i + 1});`));
  });
});
