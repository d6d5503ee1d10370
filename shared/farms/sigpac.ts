/** A SIGPAC enclosure reference: province, municipality, aggregate, zone, polygon, parcel, enclosure. */
export interface SigpacRef {
  prov: string;
  town: string;
  aggr: string;
  zone: string;
  pol: string;
  parc: string;
  enc: string;
}

export const SIGPAC_FIELDS = ['prov', 'town', 'aggr', 'zone', 'pol', 'parc', 'enc'] as const;

/** Just the seven SIGPAC fields of `ref` (an enclosure, an index entry), as written and in the spec's order. */
export function pickSigpac(ref: SigpacRef): SigpacRef {
  const { prov, town, aggr, zone, pol, parc, enc } = ref;
  return { prov, town, aggr, zone, pol, parc, enc };
}

/** SIGPAC codes are numbers written as text; `046` and `46` name the same province, so both match. */
function canonical(code: string): string {
  return /^\d+$/.test(code) ? String(Number(code)) : code;
}

export function normalizeSigpac(ref: SigpacRef): SigpacRef {
  return {
    prov: canonical(ref.prov),
    town: canonical(ref.town),
    aggr: canonical(ref.aggr),
    zone: canonical(ref.zone),
    pol: canonical(ref.pol),
    parc: canonical(ref.parc),
    enc: canonical(ref.enc),
  };
}

/** `prov-town-aggr-zone-pol-parc-enc`, the spec's composition of a SIGPAC code. */
export function sigpacCode(ref: SigpacRef): string {
  const n = normalizeSigpac(ref);
  return SIGPAC_FIELDS.map((f) => n[f]).join('-');
}
