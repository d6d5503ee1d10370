import { DefaultAzureCredential } from '@azure/identity';
import { QueueClient } from '@azure/storage-queue';
import { Settings } from '../config/settings';

/** The export queue (docs/architecture.md, "Overview"); the Functions host moves a message to `<name>-poison` after maxDequeueCount. */
export const EXPORT_QUEUE = 'export-jobs';
export const EXPORT_POISON_QUEUE = `${EXPORT_QUEUE}-poison`;

/**
 * Sends queue messages the way the Functions queue trigger reads them: base64 text (the SDK sends text as is,
 * docs/architecture.md, "Toolchain notes"). The queue is created once per process.
 */
export class QueueSender {
  private readonly client: QueueClient;
  private ready: Promise<unknown> | undefined;

  constructor(settings: Pick<Settings, 'AzureWebJobsStorage' | 'AzureWebJobsStorage__accountName'>, name: string) {
    const conn = settings.AzureWebJobsStorage;
    this.client = conn
      ? new QueueClient(conn, name)
      : new QueueClient(`https://${settings.AzureWebJobsStorage__accountName}.queue.core.windows.net/${name}`, new DefaultAzureCredential());
  }

  async send(message: unknown): Promise<void> {
    this.ready ??= this.client.createIfNotExists().catch((e: unknown) => {
      this.ready = undefined;
      throw e;
    });
    await this.ready;
    await this.client.sendMessage(Buffer.from(JSON.stringify(message), 'utf8').toString('base64'));
  }
}
