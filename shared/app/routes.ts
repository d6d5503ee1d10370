import { KindEntry, RECORD_OPERATIONS, ViewEntry } from '../records/kind-entry';
import { RecordOperationId, recordRoutes, viewRoute } from '../http/record-routes';
import { CORE_ROUTES, Route } from '../http/routes';
import { RECORD_KINDS } from './record-kinds';

/** The operation ids of every registered kind's seven operations. */
export type RecordKindOperationId = RecordOperationId<(typeof RECORD_KINDS)[number]['stem']>;

/** Every registered kind's operations' addresses, kind by kind, each kind's in its operations' order. */
const KIND_ROUTES = RECORD_KINDS.flatMap((kind) => {
  const of = recordRoutes(kind);
  return RECORD_OPERATIONS.map((op) => of[op]);
});

type KindRoute = Route & { operationId: RecordKindOperationId };

/** The operation ids of every registered kind's operations. */
export const KIND_OPERATION_IDS = KIND_ROUTES.map((r) => r.operationId);

/** The views of a farm campaign the registered kinds bring (`views` of their entries), in the registry's order. */
type ViewOf<K> = K extends { views: readonly (infer V)[] } ? V : never;
export type KindViewOperationId = ViewOf<(typeof RECORD_KINDS)[number]>['operationId'];
type ViewRoute = Route & { operationId: KindViewOperationId };
const VIEW_ROUTES: ViewRoute[] = RECORD_KINDS.flatMap((kind: KindEntry) =>
  (kind.views ?? []).map((view) => viewRoute(view as ViewEntry<KindViewOperationId>)),
);

/** The operation ids of the views the registered kinds bring. */
export const KIND_VIEW_OPERATION_IDS = VIEW_ROUTES.map((r) => r.operationId);

const { farmLookup, listIdcp, ...others } = CORE_ROUTES;

/**
 * Every HTTP operation's address, by operation id: the core's and each registered kind's (the kinds' after the farm's,
 * then the views they bring, as the OpenAPI document lists them). Start-up registers the functions from these alone
 * (functions/index.ts); a route without a handler (functions/handlers.ts) or a tag (shared/openapi/tags.ts) does not
 * compile.
 */
export const ROUTES = {
  farmLookup,
  listIdcp,
  ...(Object.fromEntries(KIND_ROUTES.map((r) => [r.operationId, r])) as Record<RecordKindOperationId, KindRoute>),
  ...(Object.fromEntries(VIEW_ROUTES.map((r) => [r.operationId, r])) as Record<KindViewOperationId, ViewRoute>),
  ...others,
};

export type OperationId = keyof typeof ROUTES;
