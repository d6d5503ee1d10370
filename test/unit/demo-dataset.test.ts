import { readFileSync } from 'node:fs';
import path from 'node:path';
import { validateDataset } from '../../shared/backoffice/dataset-validation';
import { cardLevels } from '../../shared/domain/ropo';
import { isoDay } from '../../shared/domain/dates';
import { demoDatasetText } from '../../local/admin';
import { buildDemoDataset, DEMO_FILE_CAMPAIGN } from '../../local/demo/build-dataset';
import { productStandingOn } from '../../shared/catalog/product-state';
import { authorisesMonth, usesForCrop } from '../../shared/catalog/product-uses';
import { CATALOGUES } from '../../shared/catalog/siex-codes/catalogues';
import { officialCataloguesDir } from '../../local/siex-data';
import { findProjectRoot } from '../../local/stack';
import { existsSync } from 'node:fs';

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
    // Judged on a day of the campaign the demo is written for, not on the day the test runs: the cards' dates are
    // fixed, and a later run would find the usable ones expired.
    const today = `${DEMO_FILE_CAMPAIGN}-06-15`;
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

  it('has, for every crop of its farms, a product in force with a use for it in every month of its campaign', () => {
    const crops = [...new Set(demo.farms.flatMap((f) => f.crops.map((c) => c.typecrop.id)))];
    const gaps = crops.flatMap((crop) =>
      Array.from({ length: 12 }, (_, m) => m + 1)
        .filter((month) => {
          // The first and the last day of the month: a product that expires mid-month does not cover it.
          const days = [1, new Date(Date.UTC(DEMO_FILE_CAMPAIGN, month, 0)).getUTCDate()].map(
            (d) => `${String(d).padStart(2, '0')}-${String(month).padStart(2, '0')}-${DEMO_FILE_CAMPAIGN}`,
          );
          return !demo.products.some(
            (p) =>
              days.every((day) => productStandingOn(p, day).inForce) &&
              usesForCrop(p, crop).some((u) => authorisesMonth(u, month)),
          );
        })
        .map((month) => `crop ${crop}, month ${month}`),
    );
    expect(gaps).toEqual([]);
  });

  it("has at least 3 enclosures for every crop of every farm, and 20 besides the flow's on the first client's farm", () => {
    const few = demo.farms.flatMap((f) =>
      f.crops
        .filter((c) => c.parcels.flatMap((p) => p.sigpac).length < 3)
        .map((c) => `${f.rea} ${c.typecrop.name} ${c.name}`),
    );
    expect(few).toEqual([]);
    const first = demo.farms.find((f) => f.rea === demo.clients[0]?.farms[0]);
    expect(first?.crops.flatMap((c) => c.parcels.flatMap((p) => p.sigpac)).length).toBeGreaterThanOrEqual(21);
  });

  it('is loaded with every SIEX catalogue the gateway reads, each in data/siex/catalogues (npm start imports them all)', () => {
    const dir = officialCataloguesDir(findProjectRoot(__dirname));
    const missing = Object.values(CATALOGUES)
      .map((c) => c.file)
      .filter((file) => !existsSync(path.join(dir, file)));
    expect(missing).toEqual([]);
  });

  it("leaves its clients out for the hosted sandbox (clients: false): every farm, product and card kept, and an Azure import's key rule met", () => {
    const sandbox = buildDemoDataset(DEMO_FILE_CAMPAIGN, { clients: false });
    expect(sandbox.clients).toEqual([]);
    expect(sandbox.farms).toEqual(demo.farms);
    expect(sandbox.products).toEqual(demo.products);
    expect(sandbox.applicators).toEqual(demo.applicators);
    // As `admin import` judges a dataset bound for Azure (by account name): no key in clear, since there are none. The
    // demo itself is refused there, for its clients' clear keys.
    expect(validateDataset(JSON.parse(JSON.stringify(sandbox)), { clearKeys: false }).problems).toEqual([]);
    expect(validateDataset(JSON.parse(text), { clearKeys: false }).problems.length).toBeGreaterThan(0);
    // The default, and clients: true, are the demo with its clients.
    expect(buildDemoDataset(DEMO_FILE_CAMPAIGN, { clients: true }).clients).toEqual(demo.clients);
    expect(buildDemoDataset(DEMO_FILE_CAMPAIGN).clients).toEqual(demo.clients);
  });
});
