import { DateTime } from 'luxon';
import { StoredProduct } from '../catalog/catalog-store';
import { NOT_APPLICABLE_DAYS, ProductUse } from '../catalog/product';
import { formatDateTime } from '../domain/dates';
import { normalizeNif } from '../domain/nif';
import { urn } from '../domain/urn';
import { FarmIndex } from '../farms/farm-index';
import { Resolution } from './rule-context';
import { StoredRecordProduct, StoredTreatment } from './stored-record';
import { storedCoded, storedInfection, storedMachine, storedMeasure } from '../plant-protection/stored-part';
import { storedOtherMeasure } from './stored-request';
import { Treatment } from './treatment';

/** `ES-11179` → 11179: the register number, which the record's integer ids carry. */
export function registerNumber(code: string): number {
  return Number(code.slice(3));
}

/**
 * The pre-harvest interval of the uses that authorise the application: the longest in days (so it is never laxer than
 * a label), 'NP' when every use that states one says none applies (NO PROCEDE), '' when none states any.
 */
export function seclimitOf(uses: readonly Pick<ProductUse, 'safetyDays'>[]): string {
  const days = uses.map((u) => u.safetyDays).filter((d): d is number => typeof d === 'number');
  if (days.length > 0) return String(Math.max(...days));
  return uses.some((u) => u.safetyDays === NOT_APPLICABLE_DAYS) ? NOT_APPLICABLE_DAYS : '';
}

const flag = (f: boolean | null) => (f ? '1' : '0');

/**
 * The stored record, every field of the spec's table present: what the treatment says, what the catalog says of the
 * product, and neutral values (empty string, "0", null, empty array) for what nobody supplied.
 */
export function buildRecord(
  id: number,
  t: Treatment,
  product: StoredProduct | undefined,
  resolution: Resolution,
  farm: FarmIndex,
  exported: boolean,
  now: DateTime,
): StoredTreatment {
  const crops = new Set(resolution.entries.map((e) => farm.cropOf(e).typecropId));
  const mixed = t.mix.map((item, i) => {
    const resolved = resolution.mixed?.[i];
    // The rules resolve every product of a mix before a record is built; a record without them is a bug here.
    if (!resolved) throw new Error(`mix item ${i} was not resolved by the rules`);
    return { item, ...resolved };
  });
  const main = t.product;
  return {
    id: urn('AgriPhytosanitary', id),
    type: 'AgriPhytosanitary',
    dateApplication: formatDateTime(t.appliedAt),
    dateCreated: formatDateTime(now),
    dateModified: '',
    subtype: product ? productView(product, crops) : null,
    dose: main ? String(main.dose) : '',
    typerisk: { type: 'TypeRisk', id: '', name: '', detail: '' },
    infection: t.infection && storedInfection(t.infection),
    detail: t.detail,
    tj: (t.justifications ?? []).map((j) => storedCoded('TypeJustification', j)),
    idtpismv: t.infection ? [t.infection.code] : [],
    distributed: flag(t.distributed),
    reviewed: flag(t.reviewed),
    exported: exported ? '1' : '0',
    batch: main?.batch ?? '',
    soup: t.soup ?? '',
    measure: main && storedMeasure(main.unit),
    dt: main?.total?.value ?? '',
    mdt: main?.total ? storedMeasure(main.total.unit) : null,
    st: t.area?.value ?? '',
    mst: t.area && storedMeasure(t.area.unit),
    efficacy: t.efficacy
      ? { ...storedCoded('TypeEfficacy', t.efficacy), detail: t.efficacy.detail }
      : { type: 'TypeEfficacy', id: '', name: '', detail: '' },
    preventive: flag(t.preventive),
    pp: t.pp ?? '',
    speed: t.speed ?? '',
    recipe: t.recipe ?? '',
    surface: t.surface ?? '',
    entrylimit: '',
    // The pass is safe to harvest only once every product's safety period has run.
    seclimit: seclimitOf([...resolution.uses, ...mixed.flatMap((m) => m.uses)]),
    ...(t.mix.length > 0
      ? {
          mix: mixed.map(({ item, product: p, uses }) => ({
            subtype: productView(p, crops),
            dose: String(item.dose),
            measure: storedMeasure(item.unit),
            dt: item.total?.value ?? '',
            mdt: item.total && storedMeasure(item.total.unit),
            batch: item.batch ?? '',
            infection: item.infection && storedInfection(item.infection),
            seclimit: seclimitOf(uses),
          })),
        }
      : {}),
    ...(t.otherMeasure ? { otherMeasure: storedOtherMeasure(t.otherMeasure) } : {}),
    machine: (t.machines ?? []).map(storedMachine),
    manual: t.manual ?? false,
    advisor: t.advisor && {
      type: 'UserMetadata',
      ropo: t.advisor.ropo,
      ...(t.advisor.nif !== null ? { nif: normalizeNif(t.advisor.nif) } : {}),
    },
    phenology: t.phenology && storedCoded('TypePhenology', t.phenology),
    idcp: t.idcp.map(String),
    applicator: {
      user: { type: 'UserMetadata', nif: normalizeNif(t.applicator.nif), ropo: t.applicator.ropo },
    },
    regionalAttributes: [],
  };
}

/** A product as the record shows it: the register's data, with the uses on the record's crops. */
function productView(product: StoredProduct, crops: ReadonlySet<string>): StoredRecordProduct {
  const number = registerNumber(product.code);
  return {
    type: 'TypePhytosanitary',
    id: number,
    name: product.name,
    subtype: {
      type: 'SubtypePhytosanitary',
      id: number,
      idpdf: '',
      code: product.code,
      comp: { type: 'Company', id: 0, name: product.holder.name, nif: product.holder.nif },
      subs: { type: 'Substance', id: '', name: product.substance.name },
      detail: '',
      ci: product.uses.flatMap((u) =>
        u.cropTypeIds
          .filter((c) => crops.has(c))
          .map((crop) => ({
            type: 'CropInfection' as const,
            crop,
            infection: { kind: u.pest.kind, id: String(u.pest.code), name: u.pest.name },
          })),
      ),
    },
    tpd: [{ type: 'TPD', id: number, idate: product.registered, edate: product.expires, ldate: product.lastUse }],
    prod: { type: 'TypeProduct', id: product.type.id, name: product.type.name },
  };
}
