import {
  importRegister,
  RegisterImportOptions,
  RegisterImportReport,
  Tally,
} from '../shared/catalog/register/import-register';
import { useScopes } from '../shared/domain/use-scope';
import { TableStore } from '../shared/store/tables';

interface ImportProductsOptions extends Pick<
  RegisterImportOptions,
  'today' | 'cropGroupsFile' | 'ropoLevelsFile' | 'allowMassWithdrawal'
> {
  /** Where the summary goes (default: stdout). */
  out?: (line: string) => void;
  /** Where the progress bar goes (default: stderr); `null` for none. */
  progress?: NodeJS.WriteStream | null;
}

/**
 * `npm run admin -- import-products FILE`: the official register's bulk JSON export into the catalog, with a
 * progress bar on stderr and a summary of what changed and of everything that could not be used. Returns the
 * report (the admin CLI can set its exit code from `rejected` or the thrown error).
 */
export async function importProductsCommand(
  file: string,
  store: TableStore,
  options: ImportProductsOptions = {},
): Promise<RegisterImportReport> {
  const out = options.out ?? ((line: string) => console.log(line));
  const bar = new ProgressBar(options.progress === undefined ? process.stderr : options.progress);
  try {
    const report = await importRegister(file, store, {
      today: options.today,
      cropGroupsFile: options.cropGroupsFile,
      ropoLevelsFile: options.ropoLevelsFile,
      allowMassWithdrawal: options.allowMassWithdrawal,
      onProgress: (p) => bar.update(p.bytes / Math.max(p.totalBytes, 1), `${p.products} products`),
    });
    bar.done();
    for (const line of formatRegisterReport(report)) out(line);
    return report;
  } catch (e) {
    bar.done();
    throw e;
  }
}

/**
 * A plain bar redrawn in place with `\r` when stderr is a terminal (at most ten times a second); in a log or a pipe,
 * a line at each quarter instead of a stream of carriage returns.
 */
class ProgressBar {
  private lastDraw = 0;
  private lastQuarter = -1;
  private drawn = false;

  constructor(
    private readonly stream: NodeJS.WriteStream | null,
    private readonly width = 30,
  ) {}

  update(fraction: number, label: string): void {
    if (!this.stream) return;
    const f = Math.min(Math.max(fraction, 0), 1);
    const percent = `${Math.floor(f * 100)}%`.padStart(4);
    if (this.stream.isTTY) {
      const now = Date.now();
      if (now - this.lastDraw < 100 && f < 1) return;
      this.lastDraw = now;
      const filled = Math.round(f * this.width);
      this.stream.write(`\r[${'#'.repeat(filled)}${'.'.repeat(this.width - filled)}] ${percent} ${label}\x1b[K`);
      this.drawn = true;
    } else {
      const quarter = Math.floor(f * 4);
      if (quarter <= this.lastQuarter) return;
      this.lastQuarter = quarter;
      this.stream.write(`${percent} ${label}\n`);
    }
  }

  done(): void {
    if (this.stream?.isTTY && this.drawn) this.stream.write('\n');
    this.drawn = false;
  }
}

/** The printed summary: what changed, then each kind of problem with counts, most frequent first. */
function formatRegisterReport(r: RegisterImportReport): string[] {
  const lines = [
    `Register ${r.file}: ${r.products} products, ${r.uses} uses; imported in ${r.seconds.toFixed(1)} s`,
    `  stored ${r.storedProducts} products with ${r.storedUses} uses (uses differing only by crop are merged)`,
    `  uses by scope: ${useScopes.map((scope) => `${r.scopes[scope]} ${scope}`).join(', ')}`,
    `  ${r.added.length} added, ${r.changed.length} changed, ${r.unchanged} unchanged, ` +
      `${r.withdrawn.length} withdrawn, ${r.reinstated.length} reinstated`,
  ];
  const list = (title: string, items: string[], max = 20) => {
    if (!items.length) return;
    lines.push(`  ${title} (${items.length}):`);
    for (const item of items.slice(0, max)) lines.push(`    ${item}`);
    if (items.length > max) lines.push(`    ... and ${items.length - max} more`);
  };
  const tallies = (title: string, items: Tally[], unit: string) =>
    list(
      title,
      items.map((t) => `${t.name}  (${t.count} ${unit})`),
    );
  list('added', r.added);
  list('changed', r.changed);
  list(
    'withdrawn (no new applications after the day shown)',
    r.withdrawn.map(
      (w) =>
        `${w.code}  ${w.reason === 'cancelled' ? 'cancelled in the register' : 'no longer in the register'}, ${w.day}`,
    ),
  );
  list('reinstated (in force again)', r.reinstated);
  list(
    'not stored',
    r.rejected.map((x) => `${x.numRegistro} ${x.name}: ${x.reason}`),
  );
  list('registration numbers repeated in the file (merged)', r.duplicates);
  list(
    'legacy numbers colliding with an ES- number (ES- product kept)',
    r.collisions.map((c) => `${c.numRegistro} -> ${c.code}`),
  );
  tallies('crop names with no SIEX crop (uses not stored: add them to crop-groups.json)', r.unmappedCrops, 'uses');
  tallies('uses on things no farm notebook records (not stored)', r.notFarm, 'uses');
  tallies('uses read as post-harvest by their agent alone (stored: check them)', r.scopeByAgent, 'uses');
  tallies('pests not in the SIEX catalogues (stored with code 0)', r.unresolvedPests, 'uses');
  tallies('dose units no SIEX unit measures (uses not stored)', r.unknownUnits, 'uses');
  tallies('uses not stored for their dose', r.droppedDoses, 'uses');
  tallies('fields not understood (left empty)', r.unreadFields, 'uses');
  tallies('product notes', r.notes, 'products');
  if (r.pestsMatchedLoosely.scientific || r.pestsMatchedLoosely.genus) {
    lines.push(
      `  pests matched by scientific name: ${r.pestsMatchedLoosely.scientific} uses; ` +
        `by genus (Genus spp.): ${r.pestsMatchedLoosely.genus} uses`,
    );
  }
  list('crop-groups.json codes not in PRODUCTOS', r.cropGroupUnknownCodes);
  lines.push(
    `  ROPO card levels: ${r.levels.fromRegister} from the register, ${r.levels.fromMapping} from ropo-levels.json`,
  );
  list('products with no card level from either (stored as basico: set them in ropo-levels.json)', r.levels.none);
  return lines;
}
