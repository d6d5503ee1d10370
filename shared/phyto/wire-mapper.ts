import { StoredTreatment } from './stored-record';
import { storedRequestOf, StoredTreatmentRequest, treatmentOf } from './stored-request';
import { Treatment } from './treatment';
import { PhytoRequest, phytoRequestSchema } from './wire';
import { PhytoRecordView } from './wire-record';

/**
 * The treatment on the wire: the one module of the kind that reads the API's schemas (wire.ts, wire-record.ts).
 * A request maps to the domain value and back (an amendment's merge patch applies to the wire form, and a record's
 * history lists the wire fields that changed); a stored record maps to the view the API answers.
 *
 * Today the wire request has the fields of the request a pointer stores (stored-request.ts: pointers keep the body as
 * the API accepted it), so the two share one mapping; the functions below assign one type to the other, and the day
 * either changes the compiler refuses them and this module maps the wire on its own.
 */
export const treatmentWire = { request: phytoRequestSchema };

/** The API's answer for a treatment: the stored record and whether SIEX would take it now. */
export type TreatmentAnswer = PhytoRecordView;

const asStored = (body: PhytoRequest): StoredTreatmentRequest => body;
const asWire = (stored: StoredTreatmentRequest): PhytoRequest => stored;

/** A body the wire schema accepted (the contract parsed it, or the records core did) as the domain value. */
export function treatmentFromWire(body: unknown): Treatment {
  return treatmentOf(asStored(body as PhytoRequest));
}

/** A treatment as its request on the wire. */
export function wireOf(t: Treatment): PhytoRequest {
  return asWire(storedRequestOf(t));
}

/** A product as answers show it: its code beside the register's data, where a request names it (records round-trip). */
function withCode<P extends NonNullable<StoredTreatment['subtype']>>(product: P): P & { code: string } {
  return { ...product, code: product.subtype.code };
}

/** A stored record as the API answers it, with what an export would refuse of it now (`blockers`). */
export function treatmentView(record: StoredTreatment, blockers: TreatmentAnswer['exportBlockers']): TreatmentAnswer {
  const { mix, ...rest } = record;
  return {
    ...rest,
    subtype: record.subtype && withCode(record.subtype),
    ...(mix ? { mix: mix.map((m) => ({ ...m, subtype: withCode(m.subtype) })) } : {}),
    exportable: blockers.length === 0,
    exportBlockers: blockers,
  };
}
