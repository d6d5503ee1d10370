import { DateTime } from 'luxon';
import { PhytoRecord } from './wire-record';
import { PhytoRequest } from './wire';
import { StoredProduct } from '../catalog/catalog-store';
import { NOT_APPLICABLE_DAYS, ProductUse } from '../catalog/product';
import { formatDateTime } from '../domain/dates';
import { normalizeNif } from '../domain/nif';
import { urn } from '../domain/urn';
import { FarmIndex } from '../farms/farm-index';
import { Resolution } from './rule-context';

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

/**
 * Records stored before the interval told 'NP' from 0 days (the row has no `RECORD_FORMAT`) wrote "0" for the
 * register's NO PROCEDE: before then the back office and the register import both read NO PROCEDE as 0, so an old
 * "0" is read as 'NP'. Rows written since carry the format and are read as they are.
 */
export const RECORD_FORMAT = 2;

export function upgradeRecord(record: PhytoRecord, format: number): PhytoRecord {
  return format < RECORD_FORMAT && record.seclimit === '0' ? { ...record, seclimit: NOT_APPLICABLE_DAYS } : record;
}

/**
 * The stored record, every field of the spec's table present: what the request gave, what the catalog says of the
 * product, and neutral values (empty string, "0", null, empty array) for what nobody supplied.
 */
export function buildRecord(
  id: number,
  request: PhytoRequest,
  product: StoredProduct,
  resolution: Resolution,
  farm: FarmIndex,
  exported: boolean,
  now: DateTime,
): PhytoRecord {
  const crops = new Set(resolution.entries.map((e) => farm.cropOf(e).typecropId));
  const mixed = (request.mix ?? []).map((item, i) => {
    const resolved = resolution.mixed?.[i];
    // The rules resolve every product of a mix before a record is built; a record without them is a bug here.
    if (!resolved) throw new Error(`mix item ${i} was not resolved by the rules`);
    return { item, ...resolved };
  });
  return {
    id: urn('AgriPhytosanitary', id),
    type: 'AgriPhytosanitary',
    dateApplication: request.dateApplication,
    dateCreated: formatDateTime(now),
    dateModified: '',
    subtype: productView(product, crops),
    dose: String(request.dose),
    typerisk: { type: 'TypeRisk', id: '', name: '', detail: '' },
    infection: request.infection ?? null,
    detail: request.detail ?? null,
    tj: request.tj ?? [],
    idtpismv: request.infection ? [request.infection.id] : [],
    distributed: request.distributed ?? '0',
    reviewed: request.reviewed ?? '0',
    exported: exported ? '1' : '0',
    batch: request.batch ?? '',
    soup: request.soup ?? '',
    measure: request.measure,
    dt: request.dt ?? '',
    mdt: request.mdt ?? null,
    st: request.st ?? '',
    mst: request.mst ?? null,
    efficacy: request.efficacy ?? { type: 'TypeEfficacy', id: '', name: '', detail: '' },
    preventive: request.preventive ?? '0',
    pp: request.pp ?? '',
    speed: request.speed ?? '',
    recipe: request.recipe ?? '',
    surface: request.surface ?? '',
    entrylimit: '',
    // The pass is safe to harvest only once every product's safety period has run.
    seclimit: seclimitOf([...resolution.uses, ...mixed.flatMap((m) => m.uses)]),
    ...(request.mix
      ? {
          mix: mixed.map(({ item, product: p, uses }) => ({
            subtype: productView(p, crops),
            dose: String(item.dose),
            measure: item.measure,
            dt: item.dt ?? '',
            mdt: item.mdt ?? null,
            batch: item.batch ?? '',
            infection: item.infection ?? null,
            seclimit: seclimitOf(uses),
          })),
        }
      : {}),
    machine: request.machine ?? [],
    manual: request.manual ?? false,
    advisor: request.advisor
      ? { ...request.advisor, ...(request.advisor.nif ? { nif: normalizeNif(request.advisor.nif) } : {}) }
      : null,
    phenology: request.phenology ?? null,
    idcp: request.idcp.map((i) => String(Number(i))),
    applicator: {
      user: {
        type: 'UserMetadata',
        nif: normalizeNif(request.applicator.user.nif),
        ropo: request.applicator.user.ropo,
      },
    },
    regionalAttributes: [],
  };
}

/** The longest safety period of the uses that authorize a product here, in days; undefined when none states one. */

/** A product as the record shows it: the register's data, with the uses on the record's crops. */
function productView(product: StoredProduct, crops: ReadonlySet<string>): PhytoRecord['subtype'] {
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
