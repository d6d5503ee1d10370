import { RECORD_OPERATIONS } from '../records/kind-entry';
import { RecordOperationId, recordRoutes } from '../http/record-routes';
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

const { farmLookup, listIdcp, ...others } = CORE_ROUTES;

/**
 * Every HTTP operation's address, by operation id: the core's and each registered kind's (the kinds' after the farm's,
 * as the OpenAPI document lists them). Start-up registers the functions from these alone (functions/index.ts); a
 * route without a handler (functions/handlers.ts) or a tag (shared/openapi/tags.ts) does not compile.
 */
export const ROUTES = {
  farmLookup,
  listIdcp,
  ...(Object.fromEntries(KIND_ROUTES.map((r) => [r.operationId, r])) as Record<RecordKindOperationId, KindRoute>),
  ...others,
};

export type OperationId = keyof typeof ROUTES;
