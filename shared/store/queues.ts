import type { QueueClient } from '@azure/storage-queue';
import { identity, isRestError, storageQueue } from './azure-sdk';
import { Settings } from '../config/settings';
import { deadlineSignal } from './deadline';
import { STORAGE_TRY_TIMEOUT_MS } from './tables';

/** As for tables (tables.ts): short tries, few quick retries; a request's deadline applies through the abort signal. */
const PIPELINE_OPTIONS = {
  retryOptions: { maxTries: 3, tryTimeoutInMs: STORAGE_TRY_TIMEOUT_MS, retryDelayInMs: 200, maxRetryDelayInMs: 1000 },
};

/** The export queue (docs/architecture.md, "Overview"); the Functions host moves a message to `<name>-poison` after maxDequeueCount. */
export const EXPORT_QUEUE = 'export-jobs';
export const EXPORT_POISON_QUEUE = `${EXPORT_QUEUE}-poison`;
/**
 * The webhook delivery queue (shared/notify/webhook-delivery.ts): one message per event and client, apart from exports.
 * Its poison queue has no trigger of its own: the sweeper's timer puts what reaches it back (no function group more).
 */
export const WEBHOOK_QUEUE = 'webhook-deliveries';
export const WEBHOOK_POISON_QUEUE = `${WEBHOOK_QUEUE}-poison`;
/**
 * Every queue the app sends to or reads: what GET /v1/health checks, and what the templates must declare
 * (infra/main.bicep `queueNames`, held by test/infra/checks/platform.ts), so a queue added here cannot be forgotten there.
 */
export const APP_QUEUES = [EXPORT_QUEUE, EXPORT_POISON_QUEUE, WEBHOOK_QUEUE, WEBHOOK_POISON_QUEUE] as const;

/** A message taken from a queue: its content (the JSON the app sent, or the text when it is none) and its removal. */
export interface TakenMessage {
  content: unknown;
  remove(): Promise<void>;
}

function decoded(text: string): unknown {
  const json = Buffer.from(text, 'base64').toString('utf8');
  try {
    return JSON.parse(json);
  } catch {
    return text;
  }
}

/**
 * Sends queue messages the way the Functions queue trigger reads them: base64 text (the SDK sends text as is,
 * docs/architecture.md, "Toolchain notes"). The queue is created once per process.
 */
export class QueueSender {
  private client: QueueClient | undefined;
  private ready: Promise<unknown> | undefined;

  constructor(
    private readonly settings: Pick<Settings, 'AzureWebJobsStorage' | 'AzureWebJobsStorage__accountName'>,
    private readonly name: string,
  ) {}

  /** Built on the first send: only exports need the queue SDK. */
  private queue(): QueueClient {
    const { QueueClient } = storageQueue();
    const conn = this.settings.AzureWebJobsStorage;
    this.client ??= conn
      ? new QueueClient(conn, this.name, PIPELINE_OPTIONS)
      : new QueueClient(
          `https://${this.settings.AzureWebJobsStorage__accountName}.queue.core.windows.net/${this.name}`,
          new (identity().DefaultAzureCredential)(),
          PIPELINE_OPTIONS,
        );
    return this.client;
  }

  /** The queue's address: what tells this app's queue from another app's on the same storage account. */
  get url(): string {
    return this.queue().url;
  }

  /**
   * Messages waiting, as the service counts them (approximately): what GET /v1/health reports. None while the queue
   * does not exist: a poison queue is made by the first message it gets (the host's, or `send`'s), so its absence is
   * an empty queue, not a fault.
   */
  async waiting(): Promise<number> {
    try {
      const properties = await this.queue().getProperties({ abortSignal: deadlineSignal() });
      return properties.approximateMessagesCount ?? 0;
    } catch (e) {
      if (isRestError(e, 404)) return 0;
      throw e;
    }
  }

  /**
   * Takes up to `max` messages (at most 32, the service's limit), each hidden for `hideMs` until removed; none while
   * the queue does not exist (nothing was ever sent to it).
   */
  async take(max: number, hideMs: number): Promise<TakenMessage[]> {
    const client = this.queue();
    try {
      const { receivedMessageItems } = await client.receiveMessages({
        numberOfMessages: max,
        visibilityTimeout: Math.ceil(hideMs / 1000),
        abortSignal: deadlineSignal(),
      });
      return receivedMessageItems.map((m) => ({
        content: decoded(m.messageText),
        remove: async () => void (await client.deleteMessage(m.messageId, m.popReceipt)),
      }));
    } catch (e) {
      if (isRestError(e, 404)) return [];
      throw e;
    }
  }

  /** Sends a message, hidden from the queue's readers for `delayMs` first (rounded up to whole seconds) when given. */
  async send(message: unknown, delayMs = 0): Promise<void> {
    const client = this.queue();
    const abortSignal = deadlineSignal();
    this.ready ??= client.createIfNotExists({ abortSignal }).catch((e: unknown) => {
      this.ready = undefined;
      throw e;
    });
    await this.ready;
    await client.sendMessage(Buffer.from(JSON.stringify(message), 'utf8').toString('base64'), {
      abortSignal,
      ...(delayMs > 0 ? { visibilityTimeout: Math.ceil(delayMs / 1000) } : {}),
    });
  }
}
