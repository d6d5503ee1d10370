import { UseScope } from '../../domain/use-scope';
import { Product, productSchema, ProductUse } from '../product';
import { MAX_DOC_CHARS } from '../../store/doc-entity';
import { CropResolver } from '../crop-groups';
import { normalizeName } from '../siex-codes/names';
import { PestMatch, SiexCodes } from '../siex-codes/siex-codes';
import { inPlacedUnit } from '../unit-catalogue';
import { PestKind } from '../../domain/pest-kind';
import { registerCode, RegisterCode } from './code';
import {
  earlier,
  maxApplications,
  minIntervalDays,
  registerDay,
  registerNumber,
  safetyDays,
  sortable,
  textOf,
} from './fields';
import { rawProductSchema, RawComponent, RawProduct, RawUse } from './raw-schema';
import { RopoLevel } from '../../domain/ropo';
import { levelFromRegister } from './ropo-level';
import { readScope } from './read-scope';

/**
 * One register product to the back-office product shape (`Product`), purely: everything it could not use is
 * returned as issues for the import report, never dropped without a word.
 *
 * Decisions, each for a reason:
 * - type: TIPO_PRODFITO 1 "Producto fitosanitario registrado" (everything in the register is a registered product).
 * - substance: the COMPOSICION lines ("AZUFRE 80%", joined with " + "); the Formulado text when there are none.
 * - registered: Fecha_Registro; absent in some exports, then `UNKNOWN_REGISTRATION_DAY` (and a note).
 * - in force (Estado "Vigente" or "Autorizado"): expires = Fecha_Caducidad (required); lastUse = Fecha_LimiteVenta
 *   when later (a grace period after expiry), else empty.
 * - not in force (any other Estado: "Cancelado", "Caducado", "Suspendido"...): registerState = the Estado; the day
 *   the state began is Fecha_Caducidad for an expired product, Fecha_Cancelacion for the others. With that day, the
 *   product is in force up to the earlier of it and Fecha_Caducidad, then through Fecha_LimiteVenta when later. Without
 *   it, the product is in force through Fecha_LimiteVenta, the last day the register still gives it, and with no such
 *   day on no day at all (noKnownValidDay): never up to the import day, which says nothing of the product.
 *   withdrawn = that day, or the day of the first import that saw it withdrawn (kept on later imports), for reports.
 * - requiredLevel: what the register says (./ropo-level.ts), else the operators' mapping (ropo-levels.json), else
 *   basico, reported as a product with no level.
 * - uses: first what each treats, its scope (./read-scope.ts: field, post-harvest, premises or seed; a use on
 *   packaging or substrates is left out and reported); then the crop, through the crop-group mapping for a field use,
 *   through PROD_VEGETAL for produce and seed, none for premises (a use whose crop is not mapped is left out
 *   and reported, since a use without a SIEX crop can never match a farm); the pest by the register's hierarchy code (CodigoAgente, the
 *   catalogues' own dotted code, groups included), else by name (not found: kept with code 0 and reported); the unit
 *   placed on a coded SIEX unit of the same kind, the doses converted (cc/ha to L/ha, Kg/Hl to %); a unit that cannot
 *   be placed leaves the use out (reported), so no use is stored without a SIEX unit; a single dose (max 0) is
 *   min = max; no dose at all, or min above max, leaves the use out (reported). Uses identical but for the crop are
 *   merged into one use with all the crops (uses of different scopes never are). A field use is stored without
 *   `scope`, as products were before scopes existed.
 */
export const UNKNOWN_REGISTRATION_DAY = '01-01-1900';

const REGISTERED_PRODUCT_TYPE = 1;
const IN_FORCE = new Set(['', 'vigente', 'autorizado']);
/** States whose day is the expiry day rather than a cancellation. */
const EXPIRED = /^caducad/;

export type UseIssue =
  | { kind: 'unmapped-crop'; value: string }
  | { kind: 'not-farm'; value: string }
  | { kind: 'scope-by-agent'; value: string }
  | { kind: 'unresolved-pest'; value: string }
  | { kind: 'unknown-unit'; value: string }
  | { kind: 'no-dose'; value: string }
  | { kind: 'inverted-dose'; value: string }
  | { kind: 'unread'; field: 'Plazo Seguridad' | 'Aplicaciones' | 'IntervaloAplicaciones' | 'Dosis'; value: string }
  | { kind: 'pest-by'; by: Exclude<PestMatch['by'], 'name' | 'path'>; value: string };

export interface MapContext {
  codes: SiexCodes;
  crops: CropResolver;
  /** The import's day, `DD-MM-YYYY`. */
  today: string;
  /** What is stored under this code, so a withdrawal day chosen by an earlier import stays the same. */
  previous?: (code: string) => Product | undefined;
  /** The operators' card levels for products whose level the register does not say (ropo-levels.json). */
  levels?: Readonly<Record<string, RopoLevel>>;
}

/** Where a product's card level came from: the register's words, the operators' mapping, or neither (basico). */
export type LevelSource = { from: 'register'; because: string } | { from: 'mapping' } | { from: 'none' };

export interface MappedProduct {
  code: RegisterCode;
  name: string;
  /** The register's Estado, as written. */
  estado: string;
  cancelled: boolean;
  product?: Product;
  rejected?: string;
  notes: string[];
  issues: UseIssue[];
  usesIn: number;
  level?: LevelSource;
}

export function mapRegisterProduct(input: unknown, ctx: MapContext): MappedProduct {
  const parsed = rawProductSchema.safeParse(input);
  if (!parsed.success) return notInRegisterFormat(input, parsed.error.issues);
  const { DATOSPRODUCTO: d, COMPOSICION: composition, USOS: rawUses } = parsed.data;
  const code = registerCode(d.Num_Registro);
  const out: MappedProduct = {
    code,
    name: d.Nombre,
    estado: d.Estado,
    cancelled: !IN_FORCE.has(normalizeName(d.Estado)),
    notes: [],
    issues: [],
    usesIn: rawUses.length,
  };
  if (!code.ok) return { ...out, rejected: `Num_Registro "${code.raw}": ${code.reason}` };
  if (!d.Nombre) return { ...out, rejected: 'no Nombre' };

  const days = daysInForce(d, out, ctx.previous?.(code.code)?.withdrawn ?? ctx.today);
  if ('rejected' in days) return { ...out, rejected: days.rejected };
  const uses = mapUses(rawUses, ctx, out.issues);
  if (uses.length === 0) {
    return {
      ...out,
      rejected: rawUses.length ? 'no use could be stored (see the use problems)' : 'no uses in the register',
    };
  }
  const level = cardLevel(parsed.data, ctx.levels?.[code.code]);
  out.level = level.source;
  const product: Product = {
    code: code.code,
    name: d.Nombre,
    type: {
      id: REGISTERED_PRODUCT_TYPE,
      name: ctx.codes.name('TIPO_PRODFITO', REGISTERED_PRODUCT_TYPE) ?? 'Producto fitosanitario registrado',
    },
    holder: { name: d.Titular || d.Fabricante || '(no consta)', nif: '' },
    substance: { name: substanceOf(composition) || d.Formulado || '(no consta)' },
    registered: days.registered,
    expires: days.expires,
    lastUse: days.lastUse,
    requiredLevel: level.required,
    uses,
    ...(days.withdrawn ? { withdrawn: days.withdrawn, registerState: d.Estado } : {}),
    ...(days.noKnownValidDay ? { noKnownValidDay: true as const } : {}),
  };
  const unstorable = whyNotStorable(product);
  return unstorable ? { ...out, rejected: unstorable } : { ...out, product };
}

/** An element of `Productos` that is not in the register's layout: rejected, named by its number when it has one. */
function notInRegisterFormat(input: unknown, issues: { path: PropertyKey[]; message: string }[]): MappedProduct {
  const raw = (input as { DATOSPRODUCTO?: { Num_Registro?: unknown } } | null)?.DATOSPRODUCTO?.Num_Registro;
  const where = issues.map((i) => `${i.path.map(String).join('.')}: ${i.message}`).join('; ');
  return {
    code: { ok: false, raw: textOf(raw) || '?', reason: 'not in the register format' },
    name: '',
    estado: '',
    cancelled: false,
    rejected: `not in the register format (${where})`,
    notes: [],
    issues: [],
    usesIn: 0,
  };
}

interface DaysInForce {
  registered: string;
  expires: string;
  lastUse: string;
  withdrawn?: string;
  noKnownValidDay: boolean;
}

/**
 * The product's days (the header's "registered", "in force" and "not in force" decisions), with a note in
 * `out.notes` for each date it could not read; `firstSeenWithdrawn` is the withdrawal day when the register gives
 * none (an earlier import's, or today).
 */
function daysInForce(
  d: RawProduct['DATOSPRODUCTO'],
  out: MappedProduct,
  firstSeenWithdrawn: string,
): DaysInForce | { rejected: string } {
  const day = (field: 'Fecha_Registro' | 'Fecha_Caducidad' | 'Fecha_LimiteVenta' | 'Fecha_Cancelacion') => {
    const value = registerDay(d[field]);
    if (value === null) out.notes.push(`${field} "${d[field]}" is not a date; ignored`);
    return value ?? undefined;
  };
  const registeredOn = day('Fecha_Registro');
  if (!registeredOn) out.notes.push(`no Fecha_Registro; registered recorded as ${UNKNOWN_REGISTRATION_DAY}`);
  const registered = registeredOn ?? UNKNOWN_REGISTRATION_DAY;
  const expiry = day('Fecha_Caducidad');
  const saleEnd = day('Fecha_LimiteVenta');
  const graceAfter = (expires: string) => (saleEnd && sortable(saleEnd) > sortable(expires) ? saleEnd : '');
  if (!out.cancelled) {
    if (!expiry) return { rejected: 'in force but no Fecha_Caducidad' };
    return { registered, expires: expiry, lastUse: graceAfter(expiry), noKnownValidDay: false };
  }
  const since = EXPIRED.test(normalizeName(d.Estado)) ? expiry : day('Fecha_Cancelacion');
  const withdrawn = since ?? firstSeenWithdrawn;
  if (since) {
    const expires = expiry ? earlier(expiry, since) : since;
    return { registered, expires, lastUse: graceAfter(expires), withdrawn, noKnownValidDay: false };
  }
  if (saleEnd) return { registered, expires: saleEnd, lastUse: '', withdrawn, noKnownValidDay: false };
  out.notes.push(`${d.Estado} with no day it was still valid on; in force on no day`);
  return { registered, expires: expiry ?? withdrawn, lastUse: '', withdrawn, noKnownValidDay: true };
}

/** The card level a use needs: the register's words, else the operators' mapping, else basico (reported as none). */
function cardLevel(raw: RawProduct, mapped: RopoLevel | undefined): { required: RopoLevel; source: LevelSource } {
  const fromRegister = levelFromRegister(raw);
  if (fromRegister)
    return { required: fromRegister.level, source: { from: 'register', because: fromRegister.because } };
  if (mapped) return { required: mapped, source: { from: 'mapping' } };
  return { required: 'basico', source: { from: 'none' } };
}

/** Why a mapped product cannot be stored: it breaks the product schema, or it is larger than one stored document. */
function whyNotStorable(product: Product): string | undefined {
  const valid = productSchema.safeParse(product);
  if (!valid.success) return valid.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
  const size = JSON.stringify(product).length;
  return size > MAX_DOC_CHARS ? `too large to store (${size} characters of uses)` : undefined;
}

/** "AZUFRE 80%", "OXICLORURO DE COBRE 50% (EXPR. EN CU)", "(Z)-7-TETRADECENAL 150 mg/difusor", joined by " + ". */
function substanceOf(composition: RawComponent[]): string {
  return composition
    .filter((c) => c['Nombre Sustancia'])
    .map((c) => {
      const amount = registerNumber(c.Concentracion);
      if (amount === undefined || amount === null) return c['Nombre Sustancia'];
      const figure = String(Number(amount.toPrecision(10))).replace('.', ',');
      const note = c.DescripcionNota;
      return `${c['Nombre Sustancia']} ${figure}${note.startsWith('%') ? note : note ? ` ${note}` : ''}`;
    })
    .join(' + ');
}

function mapUses(rawUses: RawUse[], ctx: MapContext, issues: UseIssue[]): ProductUse[] {
  const mapped: ProductUse[] = [];
  const unresolved: ProductUse[] = [];
  for (const u of rawUses) {
    const reading = readScope(u, (name) => ctx.crops.isProduce(name));
    if (reading.scope === 'not-farm') {
      issues.push({ kind: 'not-farm', value: u.Cultivo });
      continue;
    }
    const { scope } = reading;
    if (reading.by === 'agent') issues.push({ kind: 'scope-by-agent', value: `${u.Cultivo} / ${u.Agente}` });
    const crop = cropsOf(u.Cultivo, scope, ctx.crops);
    if (!crop) {
      issues.push({ kind: 'unmapped-crop', value: u.Cultivo || '(no crop)' });
      continue;
    }
    const dose = doseOf(u, issues);
    if (!dose) continue;
    const unitText = u['Unidad Medida dosis'] || u.UnidadMedidaDosis;
    const placed = ctx.codes.units.place(unitText);
    if (!placed) {
      issues.push({ kind: 'unknown-unit', value: unitText || '(no unit)' });
      continue;
    }
    const pest = ctx.codes.pestByPath(u.CodigoAgente) ?? ctx.codes.pestByName(u.Agente);
    if (!pest) issues.push({ kind: 'unresolved-pest', value: u.Agente || '(no agent)' });
    else if (pest.by === 'scientific' || pest.by === 'genus')
      issues.push({ kind: 'pest-by', by: pest.by, value: u.Agente });
    const use: ProductUse = {
      ...(scope === 'field' ? {} : { scope }),
      cropTypeIds: crop.codes,
      pest: pest
        ? { code: pest.code, kind: pest.kind, name: u.Agente || pest.name }
        : { code: 0, kind: 'plaga', name: u.Agente || '(no consta)' },
      doseMin: inPlacedUnit(dose.min, placed),
      doseMax: inPlacedUnit(dose.max, placed),
      unit: { code: placed.unit.code, symbol: placed.unit.symbol },
    };
    const limits = {
      maxApplications: read(maxApplications(u.Aplicaciones), 'Aplicaciones', u.Aplicaciones, issues),
      minIntervalDays: read(
        minIntervalDays(u.IntervaloAplicaciones),
        'IntervaloAplicaciones',
        u.IntervaloAplicaciones,
        issues,
      ),
      safetyDays: read(safetyDays(u['Plazo Seguridad']), 'Plazo Seguridad', u['Plazo Seguridad'], issues),
    };
    for (const [key, value] of Object.entries(limits) as [keyof typeof limits, number | undefined][]) {
      if (value !== undefined) use[key] = value;
    }
    (pest ? mapped : unresolved).push(use);
  }
  // A pest the catalogues do not know gets the kind most of the product's other uses have (a fungicide's are diseases).
  const kind = predominantKind(mapped);
  for (const use of unresolved) use.pest.kind = kind;
  return mergeByCrop([...mapped, ...unresolved]);
}

/**
 * The crops of a use of this scope: a field use's through the crop groups and PRODUCTOS; produce's and
 * seed's through PROD_VEGETAL first ("Simiente de trigo"), else as a crop ("Cebada" dosed per 100 kg of seed);
 * premises have none.
 */
function cropsOf(cultivo: string, scope: UseScope, crops: CropResolver): { codes: string[] } | undefined {
  if (scope === 'facility') return { codes: [] };
  if (scope === 'field') return crops.resolve(cultivo);
  return crops.resolveProduce(cultivo) ?? crops.resolve(cultivo);
}

function doseOf(u: RawUse, issues: UseIssue[]): { min: number; max: number } | undefined {
  const min = registerNumber(u.Dosis_Min);
  const max = registerNumber(u.Dosis_Max);
  const shown = `${String(u.Dosis_Min ?? '')}-${String(u.Dosis_Max ?? '')}`;
  if (min === null || max === null) {
    issues.push({ kind: 'unread', field: 'Dosis', value: shown });
    return undefined;
  }
  const low = min ?? 0;
  // The register writes a single authorised dose as Dosis_Min with Dosis_Max 0.
  const high = max === undefined || max === 0 ? low : max;
  if (high <= 0) {
    issues.push({ kind: 'no-dose', value: `${u.Cultivo} / ${u.Agente}` });
    return undefined;
  }
  if (low > high) {
    issues.push({ kind: 'inverted-dose', value: `${u.Cultivo} / ${u.Agente}: ${shown}` });
    return undefined;
  }
  return { min: low, max: high };
}

function read<T extends number | string>(
  value: T | undefined | null,
  field: 'Plazo Seguridad' | 'Aplicaciones' | 'IntervaloAplicaciones',
  text: string,
  issues: UseIssue[],
): T | undefined {
  if (value === null) issues.push({ kind: 'unread', field, value: text });
  return value ?? undefined;
}

function predominantKind(uses: ProductUse[]): PestKind {
  const counts = new Map<PestKind, number>();
  for (const u of uses) counts.set(u.pest.kind, (counts.get(u.pest.kind) ?? 0) + 1);
  let best: PestKind = 'plaga';
  for (const [kind, n] of counts) if (n > (counts.get(best) ?? 0)) best = kind;
  return best;
}

/**
 * Uses that differ only by crop become one use listing every crop: the register repeats a pest and dose for each
 * crop of a group, and for each application method or volume, which the product shape does not carry. Sorted, so
 * the stored document (and its content hash) does not change when the register reorders its rows.
 */
function mergeByCrop(uses: ProductUse[]): ProductUse[] {
  const merged = new Map<string, ProductUse>();
  for (const use of uses) {
    const { cropTypeIds, ...rest } = use;
    const key = JSON.stringify(rest);
    const found = merged.get(key);
    if (found) found.cropTypeIds = [...new Set([...found.cropTypeIds, ...cropTypeIds])];
    else merged.set(key, { ...use, cropTypeIds: [...cropTypeIds] });
  }
  for (const use of merged.values()) use.cropTypeIds.sort((a, b) => Number(a) - Number(b));
  return [...merged.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, use]) => use);
}

/**
 * Two register rows with the same registration number (the export has held such pairs, e.g. 16192 with two sale
 * deadlines): one product, in force if either is; its uses together; the later dates.
 */
export function mergeVariants(a: Product, b: Product): Product {
  if (Boolean(a.withdrawn) !== Boolean(b.withdrawn)) return a.withdrawn ? b : a;
  const later = (x: string, y: string) => (sortable(x) >= sortable(y) ? x : y);
  const expires = later(a.expires, b.expires);
  const lastUse = a.lastUse && b.lastUse ? later(a.lastUse, b.lastUse) : a.lastUse || b.lastUse;
  return {
    ...a,
    expires,
    lastUse: lastUse && sortable(lastUse) > sortable(expires) ? lastUse : '',
    uses: mergeByCrop([...a.uses, ...b.uses]),
  };
}
