/**
 * What the jest global setup (global-setup.ts) publishes about the shared local stack, for tests to read.
 * The stack is one Azurite (in memory) per data account, one unless TEST_STORAGE_ACCOUNTS says more, plus the runner
 * serving the compiled app; every test file shares it, so use unique names (queues, clients, farms) per test.
 */

function required(name: string): string {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is not set: run tests through jest with test/support/global-setup.ts (npm test)`);
  }
  return value;
}

/** Base URL of the gateway, without a trailing slash, e.g. `http://127.0.0.1:41234`. */
export function gatewayUrl(): string {
  return required('GATEWAY_URL').replace(/\/+$/, '');
}

/** Full Azurite connection string (tables and queues), the same the gateway uses as `AzureWebJobsStorage`. */
export function storageConnection(): string {
  return required('AzureWebJobsStorage');
}

/**
 * Where the stack's variables below publish STORAGE_ACCOUNTS, the gateway's data accounts in order, when it has more
 * than one. Not under its own name: tests start gateways, admin commands and stacks of their own on other Azurites,
 * which inherit the environment, and an inherited STORAGE_ACCOUNTS whose first account is not theirs fails their
 * settings check.
 */
const ACCOUNTS_VARIABLE = 'TEST_STACK_STORAGE_ACCOUNTS';

/** Publishes the stack's STORAGE_ACCOUNTS (global-setup.ts); nothing with one account, the gateway's default. */
export function publishStorageAccounts(accounts: string | undefined): void {
  if (accounts) process.env[ACCOUNTS_VARIABLE] = accounts;
}

/** The storage settings of a TableStore or services: the first account, and every data account with more than one. */
export interface StorageSettings {
  AzureWebJobsStorage: string;
  STORAGE_ACCOUNTS?: string;
}

/**
 * The storage settings of the shared stack's gateway, for a TableStore or services of the test's own that must find
 * each farm's rows where the gateway keeps them (shared/store/farm-accounts.ts). `reach` gives the connection string
 * an account is reached by instead of its own (a queue endpoint of its own, a fault proxy), by its number.
 */
export function storageSettings(reach = (connection: string, _account: number) => connection): StorageSettings {
  const accounts = (process.env[ACCOUNTS_VARIABLE] ?? storageConnection()).split(',').map(reach);
  return {
    AzureWebJobsStorage: accounts[0],
    ...(accounts.length > 1 ? { STORAGE_ACCOUNTS: accounts.join(',') } : {}),
  };
}

/** Base URL of the SIEX simulator the gateway exports to (knobs at /_control, what it received at /_inspect). */
export function siexSimulatorUrl(): string {
  return required('SIEX_SIMULATOR_URL').replace(/\/+$/, '');
}

/** Base URL of the e-mail stub the gateway sends outcome e-mails to (outbox at /_inspect/outbox). */
export function mailStubUrl(): string {
  return required('MAIL_STUB_URL').replace(/\/+$/, '');
}
