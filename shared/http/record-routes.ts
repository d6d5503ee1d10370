import { KindEntry, RecordOperation, ViewEntry } from '../records/kind-entry';
import { Route } from './routes';

/**
 * The operation ids of a kind's seven operations, made from its stem: for a kind whose stem is `Stem`, `registerStem`,
 * `registerStemBatch`, `listStem`, `readStem`, `amendStem`, `deleteStem` and `stemHistory`.
 */
interface RecordOperationIds<S extends string> {
  register: `register${S}`;
  batch: `register${S}Batch`;
  list: `list${S}`;
  read: `read${S}`;
  amend: `amend${S}`;
  delete: `delete${S}`;
  history: `${Uncapitalize<S>}History`;
}

export type RecordOperationId<S extends string> = RecordOperationIds<S>[RecordOperation];

/** A kind's seven operations' addresses: its collection, `/batch` below it, and each record at `/{id}`. */
export type RecordRoutes<S extends string> = {
  [Op in RecordOperation]: Route & { operationId: RecordOperationIds<S>[Op] };
};

/**
 * Where a kind's operations are served, from its entry alone (start-up registers them: functions/index.ts). The
 * order is the one the OpenAPI document lists them in.
 */
export function recordRoutes<S extends string>(kind: Pick<KindEntry<S>, 'stem' | 'collection'>): RecordRoutes<S> {
  const { stem, collection } = kind;
  const one = `${collection}/{id}`;
  const history = `${stem.charAt(0).toLowerCase()}${stem.slice(1)}History` as `${Uncapitalize<S>}History`;
  return {
    register: { operationId: `register${stem}`, method: 'POST', routes: [collection] },
    batch: { operationId: `register${stem}Batch`, method: 'POST', routes: [`${collection}/batch`] },
    list: { operationId: `list${stem}`, method: 'GET', routes: [collection] },
    read: { operationId: `read${stem}`, method: 'GET', routes: [one] },
    amend: { operationId: `amend${stem}`, method: 'PATCH', routes: [one] },
    delete: { operationId: `delete${stem}`, method: 'DELETE', routes: [one] },
    history: { operationId: history, method: 'GET', routes: [`${one}/history`] },
  };
}

/** Where a view a kind brings is served (a GET), from its entry alone. */
export function viewRoute<I extends string>(
  view: Pick<ViewEntry<I>, 'operationId' | 'route'>,
): Route & { operationId: I } {
  return { operationId: view.operationId, method: 'GET', routes: [view.route] };
}
