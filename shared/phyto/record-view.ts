import { DateTime } from 'luxon';
import { PhytoRecord, PhytoRequest } from '../api/phyto-schemas';
import { StoredProduct } from '../catalog/catalog-store';
import { ProductUse } from '../catalog/product';
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
  const mainSafety = safetyDays(resolution.uses);
  const safety = [mainSafety, ...mixed.map((m) => safetyDays(m.uses))].filter((d): d is number => d !== undefined);
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
    seclimit: safety.length > 0 ? String(Math.max(...safety)) : '',
    ...(request.mix
      ? {
          mix: mixed.map(({ item, product: p, uses }) => {
            const days = safetyDays(uses);
            return {
              subtype: productView(p, crops),
              dose: String(item.dose),
              measure: item.measure,
              dt: item.dt ?? '',
              mdt: item.mdt ?? null,
              batch: item.batch ?? '',
              infection: item.infection ?? null,
              seclimit: days === undefined ? '' : String(days),
            };
          }),
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
function safetyDays(uses: ProductUse[]): number | undefined {
  const days = uses.map((u) => u.safetyDays).filter((d): d is number => d !== undefined);
  return days.length > 0 ? Math.max(...days) : undefined;
}

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
