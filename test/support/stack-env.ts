/**
 * What the jest global setup (global-setup.ts) publishes about the shared local stack, for tests to read.
 * The stack is one Azurite (in memory) plus the runner serving the compiled app; every test file shares it, so use
 * unique names (queues, clients, farms) per test.
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

/** Base URL of the SIEX simulator the gateway exports to (knobs at /_control, what it received at /_inspect). */
export function siexSimulatorUrl(): string {
  return required('SIEX_SIMULATOR_URL').replace(/\/+$/, '');
}

/** Base URL of the e-mail stub the gateway sends outcome e-mails to (outbox at /_inspect/outbox). */
export function mailStubUrl(): string {
  return required('MAIL_STUB_URL').replace(/\/+$/, '');
}
