import { NOT_APPLICABLE_DAYS } from '../catalog/product';
import { MachineDocument } from '../domain/equipment';
import { PestKind } from '../domain/pest-kind';
import { StoredInfection, StoredMeasure } from '../plant-protection/stored-part';
import { StoredOtherMeasure } from './stored-request';

/**
 * A treatment's record as its row keeps it: every field of the spec's table, what the request gave beside what the
 * register says of each product, with neutral values ('', '0', null, []) for what nobody supplied. The kind's own type,
 * written by record-view.ts; the API answers it through the wire mapper (wire-mapper.ts), so either can change.
 *
 * Format 1 rows (no `format` column) wrote "0" days of safety for the register's NO PROCEDE; format 2 writes 'NP'.
 */
export const RECORD_FORMAT = 2;

export interface StoredTreatment {
  id: string;
  type: 'AgriPhytosanitary';
  /** `DD-MM-YYYY HH:mm:ss`, Madrid, as registered. */
  dateApplication: string;
  dateCreated: string;
  dateModified: string;
  /** Null for a non-chemical measure (`otherMeasure`), which names no product; its dose is then ''. */
  subtype: StoredRecordProduct | null;
  dose: string;
  typerisk: { type: 'TypeRisk'; id: string; name: string; detail: string };
  infection: StoredInfection | null;
  detail: string | null;
  tj: { type: 'TypeJustification'; id: string; name: string }[];
  idtpismv: string[];
  distributed: Flag;
  reviewed: Flag;
  exported: Flag;
  batch: string;
  soup: string;
  measure: StoredMeasure | null;
  dt: string;
  mdt: StoredMeasure | null;
  st: string;
  mst: StoredMeasure | null;
  efficacy: { type: 'TypeEfficacy'; id: string; name: string; detail: string };
  preventive: Flag;
  pp: string;
  speed: string;
  recipe: string;
  surface: string;
  entrylimit: string;
  /** Days of safety before harvest: the longest of the uses that allow the pass; 'NP' none applies; '' none stated. */
  seclimit: string;
  mix?: StoredMixProduct[];
  /** The non-chemical measure the treatment is instead of a product; absent: a product's. */
  otherMeasure?: StoredOtherMeasure;
  machine: MachineDocument[];
  manual: boolean;
  advisor: { type: 'UserMetadata'; ropo: string; nif?: string } | null;
  phenology: { type: 'TypePhenology'; id: string; name: string } | null;
  idcp: string[];
  applicator: { user: { type: 'UserMetadata'; nif: string; ropo: string } };
  regionalAttributes: Record<string, unknown>[];
}

/** A product as the record shows it: the register's data, with the uses on the record's crops. */
export interface StoredRecordProduct {
  type: 'TypePhytosanitary';
  id: number;
  name: string;
  subtype: {
    type: 'SubtypePhytosanitary';
    id: number;
    idpdf: string;
    code: string;
    comp: { type: 'Company'; id: number; name: string; nif: string };
    subs: { type: 'Substance'; id: string; name: string };
    detail: string;
    ci: { type: 'CropInfection'; crop: string; infection: { kind: PestKind; id: string; name: string } }[];
  };
  tpd: { type: 'TPD'; id: number; idate: string; edate: string; ldate: string }[];
  prod: { type: 'TypeProduct'; id: number; name: string };
}

interface StoredMixProduct {
  subtype: StoredRecordProduct;
  dose: string;
  measure: StoredMeasure;
  dt: string;
  mdt: StoredMeasure | null;
  batch: string;
  infection: StoredInfection | null;
  seclimit: string;
}

type Flag = '0' | '1';

/**
 * A row as it is meant now: before format 2 the back office and the register import both read NO PROCEDE as 0, so an
 * old "0" is 'NP'. Rows written since carry the format and are read as they are.
 */
export function upgradeRecord(record: StoredTreatment, format: number): StoredTreatment {
  return format < RECORD_FORMAT && record.seclimit === '0' ? { ...record, seclimit: NOT_APPLICABLE_DAYS } : record;
}
