import { QueueClient, QueueServiceClient } from '@azure/storage-queue';

/**
 * Queue clients for the connections named in bindings. The host reads a binding's `connection` as the name of an
 * app setting (default `AzureWebJobsStorage`), also trying the `AzureWebJobs` prefix; locally only connection strings
 * are supported (identity-based `__accountName` settings need Azure).
 */
export class QueueConnections {
  readonly #env: NodeJS.ProcessEnv;
  readonly #services = new Map<string, QueueServiceClient>();

  constructor(env: NodeJS.ProcessEnv) {
    this.#env = env;
  }

  /** The connection string for a binding's `connection` value; throws naming the missing setting. */
  connectionString(connection: unknown): string {
    const name = typeof connection === 'string' && connection.trim() ? connection.trim() : 'AzureWebJobsStorage';
    const value = this.#env[name] ?? this.#env[`AzureWebJobs${name}`];
    if (value && value.trim()) return value.trim();
    if (this.#env[`${name}__accountName`] || this.#env[`${name}__queueServiceUri`]) {
      throw new Error(
        `setting ${name} uses managed identity (${name}__accountName), which the local runner cannot use; set ${name} to a connection string`,
      );
    }
    throw new Error(`the queue connection setting "${name}" is not set (expected a storage connection string)`);
  }

  queue(connection: unknown, queueName: string): QueueClient {
    const conn = this.connectionString(connection);
    let service = this.#services.get(conn);
    if (!service) {
      // Few, quick retries: against a local Azurite a long SDK back-off only delays shutdown and error reports.
      service = QueueServiceClient.fromConnectionString(conn, {
        retryOptions: { maxTries: 3, retryDelayInMs: 200, maxRetryDelayInMs: 1000, tryTimeoutInMs: 30_000 },
      });
      this.#services.set(conn, service);
    }
    return service.getQueueClient(queueName);
  }
}

/** Queue names as the host normalizes them: lower case; `%setting%` references resolved from the environment. */
export function resolveQueueName(raw: unknown, env: NodeJS.ProcessEnv): string {
  if (typeof raw !== 'string' || !raw.trim()) throw new Error('a queue binding has no queueName');
  const resolved = raw.replace(/%([^%]+)%/g, (_m, key: string) => {
    const value = env[key];
    if (value === undefined) throw new Error(`queueName "${raw}" refers to setting ${key}, which is not set`);
    return value;
  });
  const name = resolved.toLowerCase();
  if (!/^[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9]$/.test(name)) {
    throw new Error(`"${resolved}" is not a valid queue name (3-63 lower-case letters, digits and single hyphens)`);
  }
  return name;
}
