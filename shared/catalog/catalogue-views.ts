import { DateTime } from 'luxon';
import {
  ApplicatorCard,
  AuthorisedPest,
  CatalogueProduct,
  CatalogueUnitView,
  CropProduct,
  ProductUseOnCrops,
  ProductUseView,
  SIEX_CATALOGUES,
  SiexCatalogueName,
  SiexEntry,
} from '../api/catalog-schemas';
import { formatDate, isoDay } from '../domain/dates';
import { PestKind, pestKinds } from '../domain/pest-kind';
import { isAdvisorCard, levelCovers, ropoLevels } from '../domain/ropo';
import { StoredApplicator, StoredProduct } from './catalog-store';
import { ListedProduct } from './crop-products';
import { ProductUse, scopeOf } from './product';
import { describeStanding, productStandingOn } from './product-state';
import { SiexCode } from './siex-codes/catalogues';
import { PEST_CATALOGUE, SiexCodes } from './siex-codes/siex-codes';

/**
 * What the catalogue endpoints answer, built from the reference data in memory: products with their uses (uses alike
 * but for the pest shown as one, with every pest), SIEX catalogue entries, an applicator's card.
 */

function unitView(codes: SiexCodes, unit: ProductUse['unit']): CatalogueUnitView {
  const known = codes.units.get(unit.code);
  return { code: unit.code, symbol: known?.symbol ?? unit.symbol, name: known?.name ?? unit.symbol };
}

/** A coded pest by its SIEX catalogue's name; one without a code by the register's words. */
function pestView(codes: SiexCodes, pest: ProductUse['pest']): AuthorisedPest {
  if (pest.code === 0) return { kind: pest.kind, code: null, name: pest.name };
  return { kind: pest.kind, code: pest.code, name: codes.name(PEST_CATALOGUE[pest.kind], pest.code) ?? pest.name };
}

/**
 * Uses as the answers show them: the register writes one use per pest, so uses that differ only by their pest are
 * one, listing every pest. A crop listing's uses are all for its crop; in the product view only uses of the same
 * crops are merged (`extra` adds them), so that a merged use never pairs a crop and a pest that no use of the
 * register pairs.
 */
function useViews<E extends object>(
  codes: SiexCodes,
  uses: readonly ProductUse[],
  extra?: (u: ProductUse) => E,
): (ProductUseView & E)[] {
  const merged = new Map<string, { view: ProductUseView & E; pests: Set<string> }>();
  for (const u of uses) {
    const { pest, cropTypeIds, ...rest } = u;
    const key = JSON.stringify(extra ? [rest, cropTypeIds] : rest);
    let entry = merged.get(key);
    if (!entry) {
      const base: ProductUseView = {
        dose: { min: u.doseMin, max: u.doseMax, unit: unitView(codes, u.unit) },
        pests: [],
        months: u.months ? [...u.months].sort((a, b) => a - b) : null,
        maxApplications: u.maxApplications ?? null,
        minIntervalDays: u.minIntervalDays ?? null,
        preHarvestDays: u.safetyDays ?? null,
      };
      const view = { ...base, ...(extra?.(u) as E) };
      merged.set(key, (entry = { view, pests: new Set() }));
    }
    const pestKey = `${pest.kind}:${pest.code}:${pest.code === 0 ? pest.name : ''}`;
    if (!entry.pests.has(pestKey)) {
      entry.pests.add(pestKey);
      entry.view.pests.push(pestView(codes, pest));
    }
  }
  return [...merged.values()].map((e) => e.view);
}

function productFields(p: StoredProduct) {
  return {
    code: p.code,
    name: p.name,
    holder: p.holder.name,
    substance: p.substance.name,
    type: p.type,
    registered: p.registered,
    expires: p.expires,
    lastUse: p.lastUse,
    requiredLevel: p.requiredLevel,
  };
}

/** A product of a crop listing, with the uses that accept the registration asked about. */
export function cropProductView(codes: SiexCodes, listed: ListedProduct): CropProduct {
  return { ...productFields(listed.product), uses: useViews(codes, listed.uses) };
}

/** One product: its register dates and state on the day, every use on every crop. */
export function catalogueProductView(codes: SiexCodes, product: StoredProduct, day: DateTime): CatalogueProduct {
  const standing = productStandingOn(product, day);
  return {
    ...productFields(product),
    withdrawn: product.withdrawn ?? '',
    registerState: product.registerState ?? '',
    state: {
      on: formatDate(day),
      standing: standing.inForce ? 'in-force' : standing.why,
      description: `${product.code} ${describeStanding(standing)}`,
    },
    uses: useViews(codes, product.uses, (u): Pick<ProductUseOnCrops, 'scope' | 'crops'> => ({
      scope: scopeOf(u),
      crops: u.cropTypeIds.map((code) => ({ code, name: codes.name('PRODUCTOS', code) ?? '' })),
    })),
  };
}

/** What an entry of a catalogue says whatever the day; whether it is in force is added per request. */
type StaticEntry = Omit<SiexEntry, 'inForce'>;

/**
 * What a record kind adds to the entries of a catalogue of its own, by catalogue: `record`, what a record of that
 * code must hold (a material: the data its catalogue says to record).
 */
export type CatalogueDetails = Readonly<
  Record<string, (codes: SiexCodes, code: string) => NonNullable<SiexEntry['record']> | undefined>
>;

const staticEntries = new WeakMap<SiexCodes, Map<string, StaticEntry[]>>();

/** The codes of a SIEX catalogue in code order, each saying whether it is in force on the day. */
export function siexEntries(
  codes: SiexCodes,
  name: SiexCatalogueName,
  day: DateTime,
  details: CatalogueDetails,
): SiexEntry[] {
  const catalogue = SIEX_CATALOGUES[name];
  let byCatalogue = staticEntries.get(codes);
  if (!byCatalogue) staticEntries.set(codes, (byCatalogue = new Map<string, StaticEntry[]>()));
  let entries = byCatalogue.get(catalogue);
  if (!entries) byCatalogue.set(catalogue, (entries = buildEntries(codes, catalogue, details[catalogue])));
  return entries.map((e) => ({ ...e, inForce: codes.isValid(catalogue, e.code, day) }));
}

const KIND_OF_CATALOGUE = new Map<string, PestKind>(pestKinds.map((kind) => [PEST_CATALOGUE[kind], kind]));

function buildEntries(
  codes: SiexCodes,
  catalogue: string,
  detail: CatalogueDetails[string] | undefined,
): StaticEntry[] {
  const kind = KIND_OF_CATALOGUE.get(catalogue);
  return codes
    .list(catalogue)
    .sort(byCode)
    .map((e) => {
      const entry = { code: e.code, name: e.name } as StaticEntry;
      if (catalogue === 'UNIDADES_MEDIDA') {
        entry.symbol = e.name;
        entry.name = codes.units.get(Number(e.code))?.name ?? e.name;
      }
      if (kind) entry.kind = kind;
      if (e.scientific) entry.scientific = e.scientific;
      if (e.eppo) entry.eppo = e.eppo;
      if (e.parent) entry.parent = e.parent;
      if (kind && e.path) {
        const ref = { kind, code: Number(e.code) };
        entry.path = e.path;
        entry.parent = codes.pests.pathOf(ref) ? (codes.pests.groupsOf(ref)[0]?.code.toString() ?? null) : null;
      }
      if (catalogue === 'EST_FENOLOGICO' && e.path) entry.stage = e.path;
      const record = detail?.(codes, e.code);
      if (record) entry.record = record;
      entry.until = e.until ? formatIsoDay(e.until) : '';
      return entry;
    });
}

/** Numeric codes in number order, others (UNE machine types: `0000000_88`) as text. */
function byCode(a: SiexCode, b: SiexCode): number {
  const [x, y] = [Number(a.code), Number(b.code)];
  if (Number.isInteger(x) && Number.isInteger(y)) return x - y;
  return a.code < b.code ? -1 : a.code > b.code ? 1 : 0;
}

function formatIsoDay(iso: string): string {
  const [y, m, d] = iso.split('-');
  return `${d}-${m}-${y}`;
}

/** An applicator's card as a lookup answers it: no name, no NIF, only what an ERP needs to warn before a treatment. */
export function applicatorCardView(card: StoredApplicator, day: DateTime): ApplicatorCard {
  return {
    ropo: card.ropo,
    levels: card.levels,
    covers: ropoLevels.filter((level) => levelCovers(card.levels, level)),
    advisor: isAdvisorCard(card),
    validUntil: card.validUntil,
    expired: isoDay(formatDate(day)) > isoDay(card.validUntil),
    suspended: card.suspended,
  };
}
