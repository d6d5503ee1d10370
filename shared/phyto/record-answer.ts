import { PhytoRecord, PhytoRecordView } from './wire-record';
import { parseUrn } from '../domain/urn';
import { FarmIndex } from '../farms/farm-index';
import { BlockIds } from '../records/block-ids';
import { exportBlockers } from './cue-block';

/** A product as answers show it: its code beside the register's data, where a request names it (records round-trip). */
function withCode<P extends PhytoRecord['subtype']>(product: P): P & { code: string } {
  return { ...product, code: product.subtype.code };
}

/**
 * A record as answered: the stored record with what an export would refuse of it now, judged by the export's own
 * check (cue-block.ts) with the IdAjena the record keeps for its blocks (`blockIds`), so an ERP learns at registration what SIEX will need, not from a failed job.
 */
export function recordAnswer(record: PhytoRecord, farm: FarmIndex, blockIds: BlockIds | null): PhytoRecordView {
  const blockers = exportBlockers(record, parseUrn('AgriPhytosanitary', record.id) ?? 0, farm, blockIds);
  const { mix, ...rest } = record;
  return {
    ...rest,
    subtype: withCode(record.subtype),
    ...(mix ? { mix: mix.map((m) => ({ ...m, subtype: withCode(m.subtype) })) } : {}),
    exportable: blockers.length === 0,
    exportBlockers: blockers,
  };
}
