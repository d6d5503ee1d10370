import { createHash } from 'node:crypto';
import type { TableClient } from '@azure/data-tables';
import { isRestError } from './azure-sdk';

/**
 * Which data account holds a farm's rows (issue 37, item 2): its records, versions, history and idempotency entries,
 * the holding's partition of every record kind's table. A farm's account is chosen once, by a stable hash of its REA
 * over the accounts there are then, and recorded in the first account; the record wins from then on, so adding an
 * account moves no farm that has one, and new farms spread over all of them. The record is written create-if-absent:
 * of two processes choosing at once (under different account counts, during a rollout) the first write stands and
 * the other reads it.
 *
 * Rows are `PartitionKey` the REA, `RowKey` ROW_KEY, with the account's number and the account count it was chosen over.
 */
const ROW_KEY = 'account';

/** The account a stable hash of the REA chooses among `count`: the same in every process and after every restart. */
export function hashedAccount(rea: string, count: number): number {
  return createHash('sha256').update(rea, 'utf8').digest().readUInt32BE(0) % count;
}

export class FarmAccounts {
  /** A farm's account never changes once recorded, so what a process has read it keeps (one number a farm). */
  private readonly known = new Map<string, number>();
  private readonly reading = new Map<string, Promise<number>>();

  constructor(
    private readonly table: () => Promise<TableClient>,
    readonly count: number,
  ) {}

  /**
   * The farm's account: the recorded one, else the one the hash chooses now, recorded. One point read per farm and
   * process (plus a write the first time a farm is met); concurrent calls for a farm share it.
   */
  of(rea: string): Promise<number> {
    const known = this.known.get(rea);
    if (known !== undefined) return Promise.resolve(known);
    let reading = this.reading.get(rea);
    if (!reading) {
      reading = this.readOrRecord(rea).finally(() => this.reading.delete(rea));
      this.reading.set(rea, reading);
    }
    return reading;
  }

  /** The recorded account, or null: what the operator's listing reads (no choice is recorded). */
  async recorded(rea: string): Promise<number | null> {
    const row = await (
      await this.table()
    )
      .getEntity<{ account: number }>(rea, ROW_KEY, { queryOptions: { select: ['account'] } })
      .catch((e: unknown) => {
        if (isRestError(e, 404)) return null;
        throw e;
      });
    return row && Number(row.account);
  }

  /**
   * Records the farm's account if it has none (the back office records every farm it imports, so requests find it
   * there): the hash's choice among the accounts there are now. Answers the recorded account, this one or an earlier.
   */
  async record(rea: string): Promise<number> {
    const account = hashedAccount(rea, this.count);
    try {
      await (await this.table()).createEntity({ partitionKey: rea, rowKey: ROW_KEY, account, count: this.count });
      this.known.set(rea, account);
      return account;
    } catch (e) {
      // Recorded before, or by another process meanwhile, or this very write landed with its answer lost: the stored
      // row says which account, and it is the one that counts.
      if (!isRestError(e, 409)) throw e;
      const recorded = await this.recorded(rea);
      if (recorded === null) throw e;
      this.known.set(rea, recorded);
      return recorded;
    }
  }

  private async readOrRecord(rea: string): Promise<number> {
    const recorded = await this.recorded(rea);
    if (recorded === null) return this.record(rea);
    this.known.set(rea, recorded);
    return recorded;
  }
}
