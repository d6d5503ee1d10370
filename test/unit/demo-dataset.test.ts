import { readFileSync } from 'node:fs';
import path from 'node:path';
import { validateDataset } from '../../shared/backoffice/dataset-validation';
import { cardLevels } from '../../shared/domain/ropo';
import { isoDay } from '../../shared/domain/dates';
import { demoDatasetText } from '../../local/admin';

const FILE = path.resolve(__dirname, '../../local/demo/dataset.json');
const text = readFileSync(FILE, 'utf8');
const checked = validateDataset(JSON.parse(text));
const demo = checked.dataset!;

describe('demo dataset (local/demo/dataset.json)', () => {
  it('is exactly the output of demoDatasetText() (regenerate with `npm run admin -- write-demo-dataset`)', () => {
    const expected = demoDatasetText();
    const a = text.split('\n');
    const b = expected.split('\n');
    const line = a.findIndex((l, i) => l !== b[i]);
    const firstDifference = text === expected ? null : { line: line + 1, file: a[line], generated: b[line] };
    expect(firstDifference).toBeNull();
  });

  it('validates as a back-office dataset', () => {
    expect(checked.problems).toEqual([]);
  });

  it('has at least 2 clients, each with at least one farm of the dataset, and no farm shared between them', () => {
    expect(demo.clients.length).toBeGreaterThanOrEqual(2);
    const reas = new Set(demo.farms.map((f) => f.rea));
    for (const c of demo.clients) {
      expect(c.farms.length).toBeGreaterThan(0);
      for (const rea of c.farms) expect(reas).toContain(rea);
    }
    const owners = demo.clients.flatMap((c) => c.farms);
    expect(new Set(owners).size).toBe(owners.length);
  });

  it('has an enclosure in a nitrate-vulnerable zone, for the fertilization flow', () => {
    const vulnerable = demo.farms.flatMap((f) =>
      f.crops.flatMap((c) => c.parcels.flatMap((p) => p.sigpac.filter((s) => s.nitrateVulnerable))),
    );
    expect(vulnerable.map((s) => `${s.pol}-${s.parc}-${s.enc}`)).toEqual(['12-45-2']);
  });

  it('has at least 3 farms, one with at least 5,000 enclosures (for the benchmarks)', () => {
    expect(demo.farms.length).toBeGreaterThanOrEqual(3);
    const enclosures = demo.farms.map((f) => f.crops.flatMap((c) => c.parcels.flatMap((p) => p.sigpac)).length);
    expect(Math.max(...enclosures)).toBeGreaterThanOrEqual(5_000);
  });

  it('has at least 5 products with register-style codes and authorized uses', () => {
    expect(demo.products.length).toBeGreaterThanOrEqual(5);
    for (const p of demo.products) {
      expect(p.code).toMatch(/^ES-\d{5}$/);
      expect(p.holder.name).not.toBe('');
      expect(p.substance.name).not.toBe('');
      expect(p.uses.length).toBeGreaterThan(0);
    }
  });

  it('has cards covering every level and the advisor registration, plus one suspended and one expired card', () => {
    expect(demo.applicators.length).toBeGreaterThanOrEqual(4);
    const levels = new Set(demo.applicators.flatMap((a) => a.levels));
    for (const level of cardLevels) expect(levels).toContain(level);
    expect(demo.applicators.some((a) => a.suspended)).toBe(true);
    const today = new Date().toISOString().slice(0, 10);
    expect(demo.applicators.some((a) => !a.suspended && isoDay(a.validUntil) < today)).toBe(true);
    // and usable ones: a valid, unsuspended card for every level
    for (const level of cardLevels) {
      expect(
        demo.applicators.some((a) => a.levels.includes(level) && !a.suspended && isoDay(a.validUntil) >= today),
      ).toBe(true);
    }
  });

  it('has demo keys that the walkthrough can use: distinct, at least 32 characters', () => {
    const keys = demo.clients.flatMap((c) => [c.sidKey, c.apiKey]);
    expect(new Set(keys).size).toBe(keys.length);
    for (const k of keys) expect(k.length).toBeGreaterThanOrEqual(32);
  });
});
