import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadCropGroups } from '../shared/catalog/crop-groups';
import { importRegister } from '../shared/catalog/register/import-register';
import { CATALOGUES } from '../shared/app/siex-catalogues';
import { importCatalogues } from '../shared/catalog/siex-codes/import-catalogues';
import { SiexCodes } from '../shared/catalog/siex-codes/siex-codes';
import { loadSiexCodes } from '../shared/catalog/siex-codes/store';
import { TableStore } from '../shared/store/tables';
import { officialCataloguesDir } from '../local/siex-data';
import { findProjectRoot } from '../local/stack';
import { registerUse } from '../local/fixtures/register';

export interface RegisterBenchResult {
  seconds: number;
  peakRssMb: number;
  products: number;
  uses: number;
}

export interface RegisterBenchOptions {
  products?: number;
  uses?: number;
  /** Folder of the official SIEX CSVs, imported first when the store has none (default: data/siex/catalogues). */
  siexDir?: string;
}

/**
 * `npm run bench`: imports a synthetic register export of 2,100 products and 60,000 uses (the size of the real one)
 * written in the official format to a temporary file, and measures the import: wall time and the peak resident
 * memory sampled while it runs. Figures only, no assertions (docs/architecture.md, "Layout").
 *
 * It writes to the store's catalog table: give it scratch storage (the bench's own Azurite). Products already there
 * and absent from the synthetic register are withdrawn by the refresh, as a real import would.
 */
export async function benchImportRegister(
  store: TableStore,
  options: RegisterBenchOptions = {},
): Promise<RegisterBenchResult> {
  const products = options.products ?? 2100;
  const uses = options.uses ?? 60_000;
  let codes = await loadSiexCodes(store);
  if (codes.size('UNIDADES_MEDIDA') === 0) {
    await importCatalogues(options.siexDir ?? defaultSiexDir(), store, CATALOGUES);
    codes = await loadSiexCodes(store);
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-register-'));
  const file = path.join(dir, 'register.json');
  try {
    await writeSyntheticRegister(file, codes, products, uses);
    let peak = process.memoryUsage().rss;
    const sample = () => (peak = Math.max(peak, process.memoryUsage().rss));
    const timer = setInterval(sample, 25);
    const started = process.hrtime.bigint();
    try {
      const report = await importRegister(file, store, { onProgress: sample, allowMassWithdrawal: true });
      sample();
      return {
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
        peakRssMb: Math.round(peak / 2 ** 20),
        products: report.products,
        uses: report.uses,
      };
    } finally {
      clearInterval(timer);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The seeded choices of one synthetic register: every draw comes from one sequence, in the order made. */
class Draws {
  readonly random: () => number;
  constructor(seed: number) {
    this.random = seeded(seed);
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)]!;
  }
}

/** The values a synthetic use draws from: names the register uses and the awkward values it holds. */
interface UseValues {
  crops: string[];
  units: string[];
  safety: string[];
  applications: string[];
  intervals: string[];
}

function syntheticUse(d: Draws, v: UseValues, agents: string[]) {
  const min = Math.round(d.random() * 300) / 100;
  return registerUse(
    d.pick(v.crops),
    d.pick(agents),
    min,
    d.random() < 0.2 ? 0 : Math.round((min + d.random() * 2) * 100) / 100,
    d.pick(v.units),
    d.pick(v.safety),
    {
      'Volumen Caldo': '500-1000 l/ha',
      Aplicaciones: d.pick(v.applications),
      IntervaloAplicaciones: d.pick(v.intervals),
      CondicionamientoEspecifico:
        d.random() < 0.3 ? 'Aplicar en pulverización foliar al inicio de la infestación.' : '',
      Volumen_Min: 500,
      VolumenMax: 1000,
      'Unidades Volumen': 'l/ha',
    },
  );
}

/** Product `i` of the register with `uses` uses against one family of agents; one in 40 cancelled. */
function syntheticProduct(d: Draws, i: number, uses: number, v: UseValues, agents: string[]) {
  const number = i % 2 === 0 ? String(10000 + i) : `ES-${String(i).padStart(5, '0')}`;
  return {
    DATOSPRODUCTO: {
      IdProducto: 110000 + i,
      Num_Registro: number,
      Nombre: `PRODUCTO SINTÉTICO ${i}`,
      Titular: d.pick([
        'UPL IBERIA, S.A.',
        'BASF Agricultural Solutions Spain S.L.U.',
        'SYNGENTA ESPAÑA, S.A.',
        'ADAMA Agriculture España S.A.',
      ]),
      Fabricante: 'FABRICANTE S.A.',
      Formulado: 'AZUFRE 80% [WG] P/P',
      Fecha_Registro: '2010-01-01T00:00:00',
      Estado: i % 40 === 0 ? 'Cancelado' : 'Vigente',
      Fecha_Caducidad: `20${27 + (i % 4)}/0${1 + (i % 9)}/15`,
      Fecha_Cancelacion: i % 40 === 0 ? '2026/03/01' : '',
      Fecha_LimiteVenta: '',
      Condicionamiento: 'Uso profesional. Respetar una banda de seguridad de 5 m hasta masas de agua superficial.',
    },
    COMPOSICION: [{ 'Nombre Sustancia': 'AZUFRE', NombreUE: 'sulphur', Concentracion: 8.0e1, DescripcionNota: '%' }],
    USOS: Array.from({ length: uses }, () => syntheticUse(d, v, agents)),
    OTRASDENOMINACIONES: [],
    OTROSNOMBRES: [],
  };
}

/**
 * Writes `products` products holding `uses` uses in all, in the official export layout, streamed to disk. Names are
 * real (crop groups and crops the register uses, pest names from the SIEX catalogues) and the awkward values the
 * real register holds recur: "NO PROCEDE", ranges, doses with max 0, several units. Seeded, so runs compare.
 */
export async function writeSyntheticRegister(
  file: string,
  codes: SiexCodes,
  products: number,
  uses: number,
): Promise<void> {
  const d = new Draws(20260814);
  const values: UseValues = {
    crops: [
      ...Object.keys(loadCropGroups().groups),
      'Tomate',
      'Lechuga',
      'Girasol',
      'Zanahoria',
      'Garbanzo',
      'Alfalfa',
    ],
    units: ['%', 'Kg/ha', 'l/ha', 'g/Hl', 'cc/hl', 'g/ha', 'l/hl'],
    safety: ['NO PROCEDE', 'NP', '3', '14', '21', '28', '3 (INVERNADERO) 10 (AIRE LIBRE)'],
    applications: ['', '1', '2', '1-3', '1-4', 'NO PROCEDE'],
    intervals: ['', '7', '7-10', '10-14', '14'],
  };
  const agents = (['ENFERMEDADES', 'PLAGAS', 'MALAS_HIERBAS', 'REGULADORES_CRECIMIENTO'] as const).map((c) =>
    codes.list(c).map((e) => e.name),
  );
  const out = createWriteStream(file, { encoding: 'utf8' });
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write('{"Productos":[');
  let remaining = uses;
  for (let i = 0; i < products; i++) {
    // Uses spread at random around the mean, at least one each, the last product taking what is left.
    const count =
      i === products - 1
        ? remaining
        : Math.max(1, Math.min(remaining - (products - i - 1), Math.round((uses / products) * 2 * d.random())));
    remaining -= count;
    const product = syntheticProduct(d, i, count, values, agents[i % agents.length]!);
    await write(`${i ? ',' : ''}${JSON.stringify(product)}`);
  }
  await write(']}');
  out.end();
  await once(out, 'finish');
}

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function defaultSiexDir(): string {
  return officialCataloguesDir(findProjectRoot(__dirname));
}
