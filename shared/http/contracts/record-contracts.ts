import { recordParamsSchemaOf } from '../../api/record-path-and-patch';
import { KindEntry } from '../../records/kind-entry';
import { recordRoutes } from '../record-routes';
import { amendContract } from './record-amend';
import { batchContract } from './record-batch';
import { deleteContract } from './record-delete';
import { historyContract } from './record-history';
import { listContract } from './record-list';
import { readContract } from './record-read';
import { registerContract } from './record-register';

function build(entry: KindEntry) {
  const parts = {
    entry,
    http: entry.load.http(),
    routes: recordRoutes(entry),
    params: recordParamsSchemaOf(entry.urnType),
  };
  // In the order of RECORD_OPERATIONS: the routes' and the OpenAPI document's.
  return {
    register: registerContract(parts),
    batch: batchContract(parts),
    list: listContract(parts),
    read: readContract(parts),
    amend: amendContract(parts),
    delete: deleteContract(parts),
    history: historyContract(parts),
  };
}

export type KindContracts = ReturnType<typeof build>;

const built = new Map<KindEntry, KindContracts>();

/**
 * A kind's seven contracts, from its entry's HTTP face: each what every kind answers alike (record-<operation>.ts) with
 * the kind's schemas, texts, codes and examples. Built once per kind and process, on the first request of any of
 * them (the face's schemas load then), so each kind's schemas are built once.
 */
export function recordContracts(entry: KindEntry): KindContracts {
  let contracts = built.get(entry);
  if (!contracts) {
    contracts = build(entry);
    built.set(entry, contracts);
  }
  return contracts;
}
