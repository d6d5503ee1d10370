import { Fertilization } from './fertilization';
import { isSewageSludge } from './material-kinds';
import { FertilizeRecordView, FertilizeRequest, fertilizeRequestSchema } from './wire';
import { fertilizationOf as fromFields, RecordFields, recordFieldsOf, StoredFertilization } from './stored-record';

/**
 * The fertilization on the wire: the one module of the kind that reads the API's schemas (wire.ts). A request maps to the domain value and back (an amendment's merge patch applies
 * to the wire form, and a record's history lists the wire fields that changed); a stored record maps to the view the
 * API answers.
 *
 * Today the wire request has the fields a record keeps of its request (stored-record.ts), so the two share one
 * mapping; the functions below assign one type to the other, and the day either changes the compiler refuses them and
 * this module maps the wire on its own.
 */
export const fertilizationWire = { request: fertilizeRequestSchema };

/** The API's answer for a fertilization: the stored record and whether SIEX would take it now. */
export type FertilizationAnswer = FertilizeRecordView;

// An absent sludge flag is the material's (material-kinds.ts); a stated one is kept, for the rules to hold it to it.
const asFields = (r: FertilizeRequest): RecordFields => ({
  ...r,
  sludge: r.sludge ?? isSewageSludge(Number(r.material.id)),
});
// And back: a flag that says what the material does is left out, as the request that leaves it out says the same.
const asWire = (fields: RecordFields): FertilizeRequest => {
  const { sludge, ...rest } = fields;
  return sludge === isSewageSludge(Number(fields.material.id)) ? rest : fields;
};

/** A request the wire schema accepted as the domain value. */
export function fertilizationOf(r: FertilizeRequest): Fertilization {
  return fromFields(asFields(r));
}

/**
 * Any body as the domain value: the port hands it over as `unknown`, and the parse is what makes it the typed wire form
 * (with zod's defaults) whatever the caller, where a cast would trust it blindly.
 */
export function fertilizationFromWire(body: unknown): Fertilization {
  return fertilizationOf(fertilizeRequestSchema.parse(body));
}

/** Back to the wire, for an amendment's merge patch and a record's history: what `fertilizationOf` reads. */
export function requestOf(f: Fertilization): FertilizeRequest {
  return asWire(recordFieldsOf(f));
}

/** A stored record as the API answers it, with what an export would refuse of it now (`blockers`). */
export function fertilizationView(
  record: StoredFertilization,
  blockers: FertilizationAnswer['exportBlockers'],
): FertilizationAnswer {
  return { ...record, exportable: blockers.length === 0, exportBlockers: blockers };
}
