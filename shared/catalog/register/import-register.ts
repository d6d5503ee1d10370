import { stat } from 'node:fs/promises';
import { dateTimeNow } from '../../time/date-time';
import { UseScope } from '../../domain/use-scope';
import { Product, scopeOf } from '../product';
import { formatDate } from '../../domain/dates';
import { TableStore } from '../../store/tables';
import { CatalogStore } from '../catalog-store';
import { CropResolver, loadCropGroups } from '../crop-groups';
import { loadRopoLevels } from '../ropo-levels';
import { SiexCodeStore } from '../siex-codes/store';
import { readRegisterProducts } from './json-stream';
import { LevelSource, mapRegisterProduct, mergeVariants, UseIssue } from './map-product';
import { planRefresh } from './refresh';

export interface RegisterImportOptions {
  /** The import's day, `DD-MM-YYYY` (default: today in Madrid): withdrawal day of products gone from the register. */
  today?: string;
  /** A crop-group mapping to use instead of the shipped `crop-groups.json`. */
  cropGroupsFile?: string;
  /** The operators' card levels to use instead of the shipped `ropo-levels.json`. */
  ropoLevelsFile?: string;
  /**
   * A file that would withdraw more than a fifth of the products in force (and more than 10) is refused: it is far
   * likelier a partial or wrong export than a real weekly change. Set to import it anyway.
   */
  allowMassWithdrawal?: boolean;
  onProgress?: (progress: { bytes: number; totalBytes: number; products: number }) => void;
}

/** A problem and how many times it occurred (uses, for use problems; products, for notes). */
export interface Tally {
  name: string;
  count: number;
}

export interface RegisterImportReport {
  file: string;
  today: string;
  seconds: number;
  /** Products and uses read from the file. */
  products: number;
  uses: number;
  /** Products stored from this file and the uses they hold (after merging uses that differ only by crop). */
  storedProducts: number;
  storedUses: number;
  added: string[];
  changed: string[];
  unchanged: number;
  withdrawn: { code: string; reason: 'cancelled' | 'missing'; day: string }[];
  reinstated: string[];
  /** Products in the file that could not be stored, with why (a stored version, if any, stays as it was). */
  rejected: { numRegistro: string; name: string; reason: string }[];
  /** Registration numbers the file holds more than once (merged into one product). */
  duplicates: string[];
  /** Legacy numbers whose `ES-` code is also another product's: the `ES-` product is kept. */
  collisions: { code: string; numRegistro: string }[];
  /** Products with notes (a date that is not a date, no Fecha_Registro), a few examples per note. */
  notes: Tally[];
  /** The stored uses by what they treat (shared/catalog/register/read-scope.ts). */
  scopes: Record<UseScope, number>;
  /** Uses on things no farm notebook records (packaging, substrates, quarantine goods): left out. */
  notFarm: Tally[];
  /** Uses read as post-harvest by their agent alone ("Cultivo / Agente"): stored, and worth a look. */
  scopeByAgent: Tally[];
  unmappedCrops: Tally[];
  unresolvedPests: Tally[];
  /** Register units no SIEX unit measures (their uses are left out): SIEX's own and those converted are placed. */
  unknownUnits: Tally[];
  /** Where the stored products' card levels came from; `none` lists the products stored as basico for want of both. */
  levels: { fromRegister: number; fromMapping: number; none: string[] };
  /** Uses left out for their dose (none stated, or min above max), and fields that could not be read. */
  droppedDoses: Tally[];
  unreadFields: Tally[];
  /** How many uses found their pest by scientific name or by genus rather than by the whole name. */
  pestsMatchedLoosely: { scientific: number; genus: number };
  /** Codes in the crop-group mapping that PRODUCTOS does not have. */
  cropGroupUnknownCodes: string[];
}

export class RegisterImportError extends Error {}

/**
 * `import-products`: the official register's bulk export into the catalog table. Reads the file product by product,
 * maps each one (pure), merges repeated registration numbers, then works out the refresh against what is stored
 * (added / changed / withdrawn) and writes in one pass. Nothing is written until the whole file has been read, so a
 * truncated or malformed file changes nothing. Needs the SIEX catalogues imported first (units, pests, crops).
 */
export async function importRegister(
  file: string,
  store: TableStore,
  options: RegisterImportOptions = {},
): Promise<RegisterImportReport> {
  const started = process.hrtime.bigint();
  const today = options.today ?? formatDate(dateTimeNow());
  const codes = await loadNeededCodes(store);
  const crops = new CropResolver(loadCropGroups(options.cropGroupsFile), codes);
  const { levels } = loadRopoLevels(options.ropoLevelsFile);
  const catalog = new CatalogStore(store);
  const stored = new Map((await catalog.loadProducts()).map((p) => [p.code, p]));

  const totalBytes = (await stat(file)).size;
  const tallies = new Tallies();
  const products = new ProductMerger();
  const inFile = new Set<string>();
  const report = emptyReport(file, today, crops.unknownCodes());
  let bytes = 0;
  const progress = () => options.onProgress?.({ bytes, totalBytes, products: report.products });

  for await (const raw of readRegisterProducts(file, { onBytes: (b) => (bytes = b) })) {
    report.products++;
    const result = mapRegisterProduct(raw, { codes, crops, today, levels, previous: (code) => stored.get(code) });
    report.uses += result.usesIn;
    tallies.addIssues(result.issues);
    for (const note of result.notes) tallies.add('notes', note.replace(/"[^"]*"/, '"…"'));
    if (result.code.ok) inFile.add(result.code.code);
    if (!result.product) {
      report.rejected.push({ numRegistro: result.code.raw, name: result.name, reason: result.rejected ?? '' });
    } else products.add(result, result.product, report);
    if (report.products % 50 === 0) progress();
  }
  progress();

  const plan = planRefresh(stored, products.mapped, inFile, today);
  refuseMassWithdrawal(plan, options);
  // upsertProducts reads the partition again: let the copy read above go before it does.
  stored.clear();
  const upserted = await catalog.upsertProducts(plan.write);

  reportRefresh(report, plan, upserted, products.mapped);
  products.reportLevels(report);
  Object.assign(report, tallies.sorted());
  report.pestsMatchedLoosely = tallies.loose;
  report.seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return report;
}

/** The SIEX catalogues the mapping resolves against; the register is meaningless without them. */
async function loadNeededCodes(store: TableStore) {
  const codes = await new SiexCodeStore(store).loadAll();
  // PROD_VEGETAL: without it produce ("Patatas") would be read as a field crop (./read-scope.ts).
  const needed = ['UNIDADES_MEDIDA', 'PRODUCTOS', 'PROD_VEGETAL', 'ENFERMEDADES', 'PLAGAS', 'MALAS_HIERBAS'] as const;
  const absent = needed.filter((c) => codes.size(c) === 0);
  if (absent.length) {
    throw new RegisterImportError(
      `SIEX catalogue(s) not imported: ${absent.join(', ')}. Run import-catalogues with the official CSV folder first.`,
    );
  }
  return codes;
}

function emptyReport(file: string, today: string, cropGroupUnknownCodes: string[]): RegisterImportReport {
  return {
    file,
    today,
    seconds: 0,
    products: 0,
    uses: 0,
    storedProducts: 0,
    storedUses: 0,
    added: [],
    changed: [],
    unchanged: 0,
    withdrawn: [],
    reinstated: [],
    rejected: [],
    duplicates: [],
    collisions: [],
    notes: [],
    scopes: { field: 0, postharvest: 0, facility: 0, seed: 0 },
    notFarm: [],
    scopeByAgent: [],
    unmappedCrops: [],
    unresolvedPests: [],
    unknownUnits: [],
    levels: { fromRegister: 0, fromMapping: 0, none: [] },
    droppedDoses: [],
    unreadFields: [],
    pestsMatchedLoosely: { scientific: 0, genus: 0 },
    cropGroupUnknownCodes,
  };
}

type Mapped = ReturnType<typeof mapRegisterProduct>;
type Plan = ReturnType<typeof planRefresh>;

/** The file's products by code: repeated registration numbers merged, a legacy number yielding to an ES- one. */
class ProductMerger {
  readonly mapped = new Map<string, Product>();
  private readonly sources = new Map<string, { numbering: 'es' | 'legacy'; raw: string }>();
  /** Where each mapped product's level came from; of merged variants, the better-founded one. */
  private readonly levelSources = new Map<string, LevelSource>();

  add(result: Mapped, product: Product, report: RegisterImportReport): void {
    const { code } = product;
    const source = { numbering: result.code.ok ? result.code.numbering : ('es' as const), raw: result.code.raw };
    const before = this.mapped.get(code);
    const first = this.sources.get(code);
    const level = result.level ?? { from: 'none' };
    if (!before || !first) {
      this.keep(code, product, source, level);
    } else if (first.numbering === source.numbering) {
      report.duplicates.push(source.raw);
      const merged = mergeVariants(before, product);
      this.mapped.set(code, merged);
      if (merged.requiredLevel === product.requiredLevel) this.levelSources.set(code, level);
    } else {
      // A short legacy number padded onto an ES- number: the ES- product is the one the code means today.
      const legacy = source.numbering === 'legacy' ? source : first;
      report.collisions.push({ code, numRegistro: legacy.raw });
      if (source.numbering === 'es') this.keep(code, product, source, level);
    }
  }

  reportLevels(report: RegisterImportReport): void {
    for (const [code, level] of this.levelSources) {
      if (level.from === 'register') report.levels.fromRegister++;
      else if (level.from === 'mapping') report.levels.fromMapping++;
      else report.levels.none.push(code);
    }
    report.levels.none.sort();
    report.storedProducts = this.mapped.size;
    report.storedUses = [...this.mapped.values()].reduce((n, p) => n + p.uses.length, 0);
    for (const product of this.mapped.values()) for (const use of product.uses) report.scopes[scopeOf(use)]++;
  }

  private keep(
    code: string,
    product: Product,
    source: { numbering: 'es' | 'legacy'; raw: string },
    level: LevelSource,
  ) {
    this.mapped.set(code, product);
    this.sources.set(code, source);
    this.levelSources.set(code, level);
  }
}

function refuseMassWithdrawal(plan: Plan, options: RegisterImportOptions): void {
  if (!options.allowMassWithdrawal && plan.missing.length > 10 && plan.missing.length > plan.storedInForce / 5) {
    throw new RegisterImportError(
      `this file would withdraw ${plan.missing.length} of ${plan.storedInForce} products in force ` +
        `(missing from it); refusing, as it looks partial. Check the file, or import with --allow-mass-withdrawal.`,
    );
  }
}

/** What the write did, with withdrawals and reinstatements told apart from plain additions and changes. */
function reportRefresh(
  report: RegisterImportReport,
  plan: Plan,
  upserted: Awaited<ReturnType<CatalogStore['upsertProducts']>>,
  mapped: Map<string, Product>,
): void {
  const special = new Set([...plan.missing, ...plan.cancelled, ...plan.reinstated]);
  report.added = upserted.added.filter((c) => !special.has(c));
  report.changed = upserted.changed.filter((c) => !special.has(c));
  report.unchanged = upserted.unchanged;
  report.withdrawn = [
    ...plan.cancelled.map((code) => ({
      code,
      reason: 'cancelled' as const,
      day: mapped.get(code)?.withdrawn ?? report.today,
    })),
    ...plan.missing.map((code) => ({ code, reason: 'missing' as const, day: report.today })),
  ];
  report.reinstated = plan.reinstated;
}

type TallyName =
  | 'notes'
  | 'notFarm'
  | 'scopeByAgent'
  | 'unmappedCrops'
  | 'unresolvedPests'
  | 'unknownUnits'
  | 'droppedDoses'
  | 'unreadFields';

/** Counts of each problem by name, so 60,000 uses with the same unknown crop make one line with its count. */
class Tallies {
  private readonly counts = new Map<TallyName, Map<string, number>>();
  readonly loose = { scientific: 0, genus: 0 };

  add(kind: TallyName, name: string): void {
    let map = this.counts.get(kind);
    if (!map) this.counts.set(kind, (map = new Map<string, number>()));
    map.set(name, (map.get(name) ?? 0) + 1);
  }

  addIssues(issues: UseIssue[]): void {
    for (const issue of issues) {
      switch (issue.kind) {
        case 'unmapped-crop':
          this.add('unmappedCrops', issue.value);
          break;
        case 'not-farm':
          this.add('notFarm', issue.value);
          break;
        case 'scope-by-agent':
          this.add('scopeByAgent', issue.value);
          break;
        case 'unresolved-pest':
          this.add('unresolvedPests', issue.value);
          break;
        case 'unknown-unit':
          this.add('unknownUnits', issue.value);
          break;
        case 'no-dose':
          this.add('droppedDoses', 'no dose stated');
          break;
        case 'inverted-dose':
          this.add('droppedDoses', 'Dosis_Min above Dosis_Max');
          break;
        case 'unread':
          this.add('unreadFields', `${issue.field}: "${issue.value}"`);
          break;
        case 'pest-by':
          this.loose[issue.by]++;
          break;
      }
    }
  }

  sorted(): Record<TallyName, Tally[]> {
    const out = {} as Record<TallyName, Tally[]>;
    for (const kind of [
      'notes',
      'notFarm',
      'scopeByAgent',
      'unmappedCrops',
      'unresolvedPests',
      'unknownUnits',
      'droppedDoses',
      'unreadFields',
    ] as const) {
      out[kind] = [...(this.counts.get(kind) ?? new Map<string, number>())]
        .map(([name, count]) => ({ name, count }))
        .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
    }
    return out;
  }
}
