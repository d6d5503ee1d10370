import { QueueClient } from '@azure/storage-queue';
import { RegisteredFunction } from '../functions-core/core-api';
import { QueueConfig } from './host-config';
import { Invoker } from './invoke';
import { RunnerLogger, formatError } from './logger';
import { QueueOutputs } from './outputs';
import { ReceivedMessage, decodeMessage, triggerData, triggerMetadata } from './queue-message';

/** How long a received message stays hidden while its invocation runs; renewed at half-time (as the host does). */
const LEASE_SECONDS = 600;
const MIN_POLL_MS = 100;

interface QueueListenerOptions {
  fn: RegisteredFunction;
  bindingName: string;
  dataType: unknown;
  queueName: string;
  queue: QueueClient;
  poison: QueueClient;
  config: QueueConfig;
  invoker: Invoker;
  outputs: QueueOutputs;
  logger: RunnerLogger;
}

/**
 * One `app.storageQueue` trigger, served as the queues extension serves it:
 * - receives up to `batchSize` messages and runs them concurrently, fetching more once no more than
 *   `newBatchThreshold` are still running;
 * - polls again at once while messages keep coming, and backs off exponentially (from 100 ms up to
 *   `maxPollingInterval`) while the queue is empty; `wake()` cuts the wait short;
 * - success deletes the message; failure makes it visible again after `visibilityTimeout`, and once it has been
 *   dequeued `maxDequeueCount` times it is copied, content unchanged, to `<queue>-poison` and deleted;
 * - a message that cannot be decoded goes straight to the poison queue.
 */
export class QueueListener {
  readonly #o: QueueListenerOptions;
  #stopped = false;
  #running = new Set<Promise<void>>();
  #loop?: Promise<void>;
  #wakeUp?: () => void;
  #pollDelay = MIN_POLL_MS;
  #errorLogged = false;
  #poisonCreated?: Promise<unknown>;

  constructor(options: QueueListenerOptions) {
    this.#o = options;
  }

  get queueName(): string {
    return this.#o.queueName;
  }

  get functionName(): string {
    return this.#o.fn.metadata.name;
  }

  /** Creates the queue if missing (the host does), then polls in the background. */
  async start(): Promise<void> {
    await this.#o.queue.createIfNotExists();
    this.#loop = this.#poll();
  }

  /** Polls now instead of waiting out the idle back-off. */
  wake(): void {
    this.#pollDelay = MIN_POLL_MS;
    this.#wakeUp?.();
  }

  /** Stops fetching; resolves when the messages already taken have been settled. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wakeUp?.();
    await this.#loop;
    await Promise.allSettled([...this.#running]);
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wakeUp = done;
    });
  }

  /** Resolves when one running message settles (or on wake/stop). */
  #slotFreed(): Promise<void> {
    return new Promise((resolve) => {
      this.#wakeUp = resolve;
      void Promise.race([...this.#running]).then(resolve, resolve);
    });
  }

  async #poll(): Promise<void> {
    const { config, queue, logger } = this.#o;
    while (!this.#stopped) {
      if (this.#running.size > config.newBatchThreshold) {
        await this.#slotFreed();
        continue;
      }
      let received: ReceivedMessage[] = [];
      try {
        const response = await queue.receiveMessages({
          numberOfMessages: config.batchSize,
          visibilityTimeout: LEASE_SECONDS,
        });
        received = response.receivedMessageItems;
        this.#errorLogged = false;
      } catch (err) {
        // Logged once per outage, not once per poll.
        if (!this.#errorLogged && !this.#stopped) logger.error(`queue ${this.#o.queueName}: receive failed`, err);
        this.#errorLogged = true;
      }
      if (this.#stopped) {
        // Taken but not started: make them visible again straight away for the next run.
        await Promise.allSettled(received.map((m) => queue.updateMessage(m.messageId, m.popReceipt, undefined, 0)));
        break;
      }
      if (received.length > 0) {
        this.#pollDelay = MIN_POLL_MS;
        for (const message of received) this.#track(this.#process(message));
        continue;
      }
      await this.#sleep(this.#pollDelay);
      this.#pollDelay = Math.min(this.#pollDelay * 2, config.maxPollingIntervalMs);
    }
  }

  #track(work: Promise<void>): void {
    this.#running.add(work);
    void work.finally(() => {
      this.#running.delete(work);
      // A freed slot may let the poller fetch the next batch.
      this.#wakeUp?.();
    });
  }

  async #process(message: ReceivedMessage): Promise<void> {
    const { fn, config, queue, invoker, logger, outputs } = this.#o;
    const name = fn.metadata.name;
    const label = `queue ${this.#o.queueName} ${name}`;
    let popReceipt = message.popReceipt;

    try {
      if (message.dequeueCount > config.maxDequeueCount) {
        // Already tried enough times (e.g. the runner died mid-invocation): as the host does, do not run it again.
        await this.#toPoison(message, popReceipt);
        logger.invocation(`${label} poison (dequeued ${message.dequeueCount} times)`);
        return;
      }
      const content = decodeMessage(message.messageText, config.messageEncoding);
      if (!content) {
        logger.error(
          `${label}: message ${message.messageId} is not valid ${config.messageEncoding}; moved to ${this.#o.queueName}-poison`,
        );
        await this.#toPoison(message, popReceipt);
        return;
      }

      // Keep the message hidden while a long invocation runs.
      const renew = setInterval(
        () => {
          queue
            .updateMessage(message.messageId, popReceipt, undefined, LEASE_SECONDS)
            .then((r) => {
              if (r.popReceipt) popReceipt = r.popReceipt;
            })
            .catch((err: unknown) => logger.warn(`${label}: could not extend the lease: ${formatError(err)}`));
        },
        (LEASE_SECONDS * 1000) / 2,
      );
      renew.unref();

      const started = performance.now();
      let failure: unknown;
      try {
        const response = await invoker.invoke(fn, {
          inputData: [{ name: this.#o.bindingName, data: triggerData(content, this.#o.dataType) }],
          triggerMetadata: triggerMetadata(message, content, name),
        });
        await outputs.flush(fn, response);
      } catch (err) {
        failure = err;
      } finally {
        clearInterval(renew);
      }
      const ms = Math.round(performance.now() - started);
      const attempt = `try ${message.dequeueCount}/${config.maxDequeueCount}`;

      if (failure === undefined) {
        await queue.deleteMessage(message.messageId, popReceipt);
        logger.invocation(`${label} ok ${ms}ms (${attempt})`);
        return;
      }
      invoker.logFailure(name, failure);
      if (message.dequeueCount >= config.maxDequeueCount) {
        await this.#toPoison(message, popReceipt);
        logger.invocation(`${label} failed ${ms}ms (${attempt}), moved to ${this.#o.queueName}-poison`);
      } else {
        const seconds = Math.ceil(config.visibilityTimeoutMs / 1000);
        await queue.updateMessage(message.messageId, popReceipt, undefined, seconds);
        logger.invocation(`${label} failed ${ms}ms (${attempt}), retry in ${seconds}s`);
      }
    } catch (err) {
      // Settling failed (storage unreachable...): the lease expires and the message comes back, as in Azure.
      logger.error(`${label}: could not settle message ${message.messageId}`, err);
    }
  }

  async #toPoison(message: ReceivedMessage, popReceipt: string): Promise<void> {
    const { poison, queue } = this.#o;
    this.#poisonCreated ??= poison.createIfNotExists().catch((err: unknown) => {
      this.#poisonCreated = undefined;
      throw err;
    });
    await this.#poisonCreated;
    await poison.sendMessage(message.messageText);
    await queue.deleteMessage(message.messageId, popReceipt);
  }
}
