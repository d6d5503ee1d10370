/**
 * The data accounts of STORAGE_ACCOUNTS (issue 37, item 2): farms' records are spread over them, and everything that is
 * not a farm's stays in the first (shared/store/farm-accounts.ts). An account is reached by a connection string
 * (Azurite locally) or by its table endpoint with the managed identity (Azure), as AzureWebJobsStorage reaches the
 * first. An account's position in the list is its number, which is what is recorded for a farm: the list is only ever
 * extended at its end.
 */
export type StorageAccount = { connectionString: string } | { endpoint: string };

/** The settings that name the data accounts. */
export interface AccountSettings {
  AzureWebJobsStorage?: string;
  AzureWebJobsStorage__accountName?: string;
  STORAGE_ACCOUNTS?: string;
}

const ENDPOINT = /^https:\/\/[a-z0-9]{3,24}\.table\.core\.windows\.net\/?$/;
/** Table Storage's own words for its connection strings, and the emulator's shorthand. */
const CONNECTION_STRING = /(^|;)\s*(AccountName=|UseDevelopmentStorage=true)/i;
const DEV_TABLE_ENDPOINT = 'http://127.0.0.1:10002/devstoreaccount1';

/** One entry of STORAGE_ACCOUNTS, or what is wrong with it. */
function parseEntry(text: string): StorageAccount | string {
  if (ENDPOINT.test(text)) return { endpoint: text.replace(/\/$/, '') };
  if (CONNECTION_STRING.test(text)) return { connectionString: text };
  return 'expected a table endpoint https://<account>.table.core.windows.net or a connection string with AccountName=';
}

/** A connection string's values by lower-cased key. */
function connectionParts(conn: string): Map<string, string> {
  const parts = new Map<string, string>();
  for (const part of conn.split(';')) {
    const at = part.indexOf('=');
    if (at > 0) parts.set(part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).trim());
  }
  return parts;
}

/**
 * Which account an entry reaches, as its table endpoint: what the settings check compares STORAGE_ACCOUNTS' first entry
 * with AzureWebJobsStorage by (two Azurites share the account name, not the endpoint).
 */
export function tableEndpointOf(account: StorageAccount): string {
  if ('endpoint' in account) return account.endpoint.toLowerCase();
  const parts = connectionParts(account.connectionString);
  if (parts.get('usedevelopmentstorage')?.toLowerCase() === 'true') return DEV_TABLE_ENDPOINT;
  const explicit = parts.get('tableendpoint');
  if (explicit) return explicit.replace(/\/$/, '').toLowerCase();
  const suffix = parts.get('endpointsuffix') ?? 'core.windows.net';
  const protocol = parts.get('defaultendpointsprotocol') ?? 'https';
  return `${protocol}://${parts.get('accountname') ?? ''}.table.${suffix}`.toLowerCase();
}

/** The account AzureWebJobsStorage names: its connection string, else the account name with the managed identity. */
function primaryAccount(s: AccountSettings): StorageAccount {
  return s.AzureWebJobsStorage
    ? { connectionString: s.AzureWebJobsStorage }
    : { endpoint: `https://${s.AzureWebJobsStorage__accountName}.table.core.windows.net` };
}

/** How an account is named to an operator: a connection string by its table endpoint (its key is a secret). */
export function describeAccount(account: StorageAccount): string {
  return 'endpoint' in account ? account.endpoint : tableEndpointOf(account);
}

/**
 * The data accounts in order, or the problems of STORAGE_ACCOUNTS: unset, the one AzureWebJobsStorage names; set, its
 * entries, the first of which must be that same account (jobs, clients, catalogues and the farms' accounts live there,
 * and the Functions host reads its queues through AzureWebJobsStorage).
 */
export function parseStorageAccounts(s: AccountSettings): { accounts: StorageAccount[] } | { problems: string[] } {
  const primary = primaryAccount(s);
  if (!s.STORAGE_ACCOUNTS) return { accounts: [primary] };
  const parsed = s.STORAGE_ACCOUNTS.split(',').map((entry) => parseEntry(entry.trim()));
  const problems = parsed.flatMap((p, i) => (typeof p === 'string' ? [`entry ${i + 1}: ${p}`] : []));
  if (problems.length > 0) return { problems };
  const accounts = parsed as StorageAccount[];
  const first = tableEndpointOf(accounts[0]!);
  if (first !== tableEndpointOf(primary))
    return {
      problems: [
        `the first account (${first}) must be the one AzureWebJobsStorage names (${describeAccount(primary)}): ` +
          "jobs, clients, catalogues and the farms' accounts live there",
      ],
    };
  const seen = new Set<string>();
  for (const [i, account] of accounts.entries()) {
    const endpoint = tableEndpointOf(account);
    if (seen.has(endpoint)) return { problems: [`entry ${i + 1} (${endpoint}) names an account listed before it`] };
    seen.add(endpoint);
  }
  return { accounts };
}

/** The data accounts of settings the schema accepted (it refuses any STORAGE_ACCOUNTS with problems). */
export function storageAccounts(s: AccountSettings): StorageAccount[] {
  const parsed = parseStorageAccounts(s);
  if ('problems' in parsed) throw new Error(`STORAGE_ACCOUNTS: ${parsed.problems.join('; ')}`);
  return parsed.accounts;
}
