import type * as DataTables from '@azure/data-tables';
import type * as Identity from '@azure/identity';
import type * as StorageQueue from '@azure/storage-queue';
import type * as StorageBlob from '@azure/storage-blob';
import type * as CommunicationEmail from '@azure/communication-email';
import { onFirstUse } from '../cache/on-first-use';

/**
 * The Azure SDKs, each loaded the first time something needs it. Together they take about 0.4 s to load, and
 * every cold start of a Flex Consumption instance would pay that before registering a single function, even for
 * a request that needs none of them (the OpenAPI document, a 401). `require` inside a function keeps the load
 * where it is first needed, under tsc and in the esbuild bundles alike (the storage SDKs are bundled in app.js and
 * start there on this first call; the others stay external).
 */
/* eslint-disable @typescript-eslint/no-require-imports -- the lazy load this module exists for */
export const dataTables = onFirstUse(() => require('@azure/data-tables') as typeof DataTables);
export const identity = onFirstUse(() => require('@azure/identity') as typeof Identity);
export const storageQueue = onFirstUse(() => require('@azure/storage-queue') as typeof StorageQueue);
export const storageBlob = onFirstUse(() => require('@azure/storage-blob') as typeof StorageBlob);
export const communicationEmail = onFirstUse(() => require('@azure/communication-email') as typeof CommunicationEmail);
/* eslint-enable @typescript-eslint/no-require-imports */

/** Whether `e` is an Azure SDK RestError with one of these statuses (without loading the SDK to test `instanceof`). */
export function isRestError(e: unknown, ...statuses: number[]): e is Error & { statusCode: number } {
  if (!(e instanceof Error) || e.name !== 'RestError') return false;
  const status = (e as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' && statuses.includes(status);
}

/** Connection failures a retry later may get past (the codes Node and the SDK give them). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ESOCKETTIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'REQUEST_SEND_ERROR',
]);

/**
 * Whether a storage call failed because storage is unavailable for now (unreachable, overloaded, too slow for the
 * time-out or the request's deadline) rather than because of what was asked: the caller may say "try again later".
 */
export function isStorageUnavailable(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  if (e.name === 'AbortError' || e.name === 'TimeoutError' || e.name === 'DeadlineExceeded') return true;
  if (e.name !== 'RestError') return false;
  const { statusCode, code } = e as { statusCode?: unknown; code?: unknown };
  if (typeof statusCode === 'number')
    return statusCode === 408 || statusCode === 429 || (statusCode >= 500 && statusCode !== 501 && statusCode !== 505);
  return typeof code === 'string' && NETWORK_CODES.has(code);
}
