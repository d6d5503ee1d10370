import { describeAccount } from '../shared/config/storage-accounts';
import { FarmStore } from '../shared/farms/farm-store';
import { TableStore } from '../shared/store/tables';

/**
 * `npm run admin -- farm-accounts`: the data accounts (STORAGE_ACCOUNTS), and each farm's, recording the account of
 * every farm that has none yet as the import does (the hash of its REA over the accounts configured now). Run before
 * adding an account (docs/operations.md, "Storage accounts"): a farm imported before accounts were recorded then keeps
 * the first account, where its rows are, instead of the one the hash would choose among more.
 */
export async function farmAccountsCommand(tables: TableStore): Promise<number> {
  tables.accounts.forEach((account, n) => console.log(`account ${n}: ${describeAccount(account)}`));
  const perAccount = tables.accounts.map(() => 0);
  let recordedNow = 0;
  for (const rea of (await new FarmStore(tables, 0).reas()).sort()) {
    const before = await tables.farmAccounts.recorded(rea);
    const account = before ?? (await tables.farmAccounts.record(rea));
    if (before === null) recordedNow++;
    perAccount[account] = (perAccount[account] ?? 0) + 1;
    console.log(`${rea.padEnd(16)} account ${account}${before === null ? ' (recorded now)' : ''}`);
  }
  console.log(`farms per account: ${perAccount.join(', ')}; ${recordedNow} recorded now`);
  return 0;
}
