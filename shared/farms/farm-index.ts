import { SigpacRef, sigpacCode } from './sigpac';

/**
 * Everything the request paths need to know about one farm campaign, kept compact: it is stored in the farm's
 * partition and held in memory, so listidcp and registration resolve crops and enclosures without a storage read
 * per enclosure.
 */
export interface FarmMeta {
  farmId: number;
  rea: string;
  /** The 14-character REA code SIEX knows the farm by ('' when unknown: such a farm cannot be exported). */
  codigoRea: string;
  year: number;
  name: string;
  province: string;
  communityCode: string;
  communityName: string;
  /** The holder's NIF: SIEX `IdTitular` and, for a private producer, `UnidadGestora`. */
  ownerNif: string;
  /** Sustainable input management under RD 1051/2022, as the back office says it; absent: unknown. */
  sustainableInputs?: boolean;
  /** First import time, `DD-MM-YYYY HH:mm:ss`, kept across re-imports. */
  dateCreated: string;
}

export interface CropEntry {
  cropId: number;
  typecropId: string;
  typecropName: string;
  code: number;
  name: string;
}

export interface IdcpEntry extends SigpacRef {
  idcp: number;
  /** Index into `crops`. */
  crop: number;
  parcelId: number;
  parcelName: string;
  dimension: string;
  dgc?: string;
  /** Hectares of this crop on the enclosure as the REA DGC declares them, when the back office gives them. */
  area?: string;
  /** The enclosure lies in a nitrate-vulnerable zone (the back office says so; absent: it does not). */
  nitrateVulnerable?: boolean;
}

export interface FarmIndexDoc {
  meta: FarmMeta;
  crops: CropEntry[];
  idcps: IdcpEntry[];
}

/** `typecropId~code`: a crop variety of the farm. */
export function cropKey(typecropId: string, code: number): string {
  return `${typecropId}~${code}`;
}

/** The index with its lookups built, as request paths use it. */
export class FarmIndex {
  readonly byIdcp = new Map<number, IdcpEntry>();
  /** crop key → SIGPAC code → idcp entry. */
  readonly byCrop = new Map<string, Map<string, IdcpEntry>>();
  readonly cropsByKey = new Map<string, CropEntry>();

  constructor(readonly doc: FarmIndexDoc) {
    for (const c of doc.crops) {
      this.byCrop.set(cropKey(c.typecropId, c.code), new Map());
      this.cropsByKey.set(cropKey(c.typecropId, c.code), c);
    }
    for (const e of doc.idcps) {
      this.byIdcp.set(e.idcp, e);
      const c = this.cropOf(e);
      this.byCrop.get(cropKey(c.typecropId, c.code))!.set(sigpacCode(e), e);
    }
  }

  get meta(): FarmMeta {
    return this.doc.meta;
  }

  cropOf(entry: IdcpEntry): CropEntry {
    const crop = this.doc.crops[entry.crop];
    // The index is written whole by the back office; a dangling crop number means a corrupt document, not bad input.
    if (!crop)
      throw new Error(
        `farm ${this.doc.meta.farmId}: idcp ${entry.idcp} names crop ${entry.crop}, which the index does not hold`,
      );
    return crop;
  }
}
