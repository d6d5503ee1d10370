import { randomUUID } from 'node:crypto';
import type { TableClient } from '@azure/data-tables';
import { DomainError, violation } from '../domain/errors';
import { isRestError } from '../store/azure-sdk';
import { TABLES, TableStore } from '../store/tables';
import { idempotencyHash } from './idempotency';

/**
 * Which operation each client's Idempotency-Key belongs to. Each operation keeps its keys beside what it changes (a
 * registration's in its kind's table, per holding; an export's per farm campaign), so no operation could see that a
 * key was another's: issue 36 found one key storing a new record on each operation it was sent to (one kind's registration,
 * then another kind's, then an export). So a key is bound, client-wide, to the first operation it is sent on, in a table of
 * its own (partition: the hash a client's key is stored under everywhere, shared/idempotency/idempotency.ts), before
 * the operation runs; the same key on another operation is 422 IDEMPOTENCY_KEY_REUSED and runs nothing.
 *
 * Keys stored before this table existed have no binding: the first request under one binds it to its own operation.
 * A replay on the operation the key was made for thus answers as before (that operation's stored answer); only a key
 * already spent on two operations before the binding existed cannot be told apart, and its first later use decides.
 *
 * A request the operation refuses (a DomainError: bad input, a rule, a conflict) stored nothing, so the binding it
 * made is removed with it and the key may be used again, as README's "Safe retries" promises. A request that failed
 * otherwise (storage, a crash) may have stored something and keeps its binding.
 */
export interface OperationKeys {
  /** Runs `run` under the key bound to `operation`, or refuses it (422) when the key is another operation's. */
  within<T>(clientId: string, key: string, operation: string, run: () => Promise<T>): Promise<T>;
}

/** The binding's one row in its partition. */
const ROW = 'operation';

/** How a request found the key: bound by itself now (its etag, to unbind it if refused), or bound before. */
type Binding = { mine: true; etag: string } | { mine: false };

export class OperationKeyStore implements OperationKeys {
  constructor(private readonly tables: TableStore) {}

  private table(): Promise<TableClient> {
    return this.tables.table(TABLES.idempotency);
  }

  async within<T>(clientId: string, key: string, operation: string, run: () => Promise<T>): Promise<T> {
    const hash = idempotencyHash(clientId, key);
    const binding = await this.bind(hash, operation);
    try {
      return await run();
    } catch (e) {
      if (binding.mine && e instanceof DomainError) await this.unbind(hash, binding.etag);
      throw e;
    }
  }

  /**
   * One insert for a new key; a key bound before costs a read too. The insert carries a nonce, so that an insert whose
   * answer was lost and whose retry the SDK saw refused as a conflict is still known as this request's own.
   */
  private async bind(hash: string, operation: string): Promise<Binding> {
    const table = await this.table();
    const nonce = randomUUID();
    try {
      const created = await table.createEntity({ partitionKey: hash, rowKey: ROW, operation, nonce });
      return { mine: true, etag: created.etag ?? '*' };
    } catch (e) {
      if (!isRestError(e, 409)) throw e;
    }
    let stored;
    try {
      stored = await table.getEntity<{ operation: string; nonce: string }>(hash, ROW);
    } catch (e) {
      // Unbound since the insert was refused (its first request was refused and let the key go): bind it again.
      if (isRestError(e, 404)) return this.bind(hash, operation);
      throw e;
    }
    if (stored.operation !== operation) {
      throw new DomainError('The Idempotency-Key was already used on another operation.', [
        violation(
          'IDEMPOTENCY_KEY_REUSED',
          'header.Idempotency-Key',
          `the key belongs to ${stored.operation}; use a new key for a new request`,
        ),
      ]);
    }
    return stored.nonce === nonce ? { mine: true, etag: stored.etag ?? '*' } : { mine: false };
  }

  /**
   * Lets a refused request's key go. The refusal is the answer whatever happens here: a binding that cannot be removed
   * (storage failing now) only keeps the key with the operation it was sent on.
   */
  private async unbind(hash: string, etag: string): Promise<void> {
    const table = await this.table();
    await table.deleteEntity(hash, ROW, { etag }).catch(() => undefined);
  }
}
