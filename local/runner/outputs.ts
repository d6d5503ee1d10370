import { QueueClient } from '@azure/storage-queue';
import { RegisteredFunction } from '../functions-core/core-api';
import { RpcBindingInfo, RpcInvocationResponse, RpcTypedData } from '../functions-core/types';
import { encodeMessage, outputMessages } from './queue-message';
import { QueueConnections, resolveQueueName } from './storage';

const RETURN = '$return';

/** The output binding's value in an invocation response (`$return` is the return value). */
export function outputValue(response: RpcInvocationResponse, name: string): RpcTypedData | null | undefined {
  if (name === RETURN) return response.returnValue;
  return response.outputData?.find((o) => o.name === name)?.data;
}

export function isQueueOutput(binding: RpcBindingInfo): boolean {
  return binding.direction === 'out' && String(binding.type).toLowerCase() === 'queue';
}

/**
 * Writes `app.storageQueue` output bindings (`output.storageQueue`) after a successful invocation, as the host
 * flushes bindings, with the host's message encoding. Queues are created on first use. `onSent` lets the runner's
 * own listener of that queue poll at once (the host does the same for queues it writes to).
 */
export class QueueOutputs {
  readonly #connections: QueueConnections;
  readonly #encoding: 'base64' | 'none';
  readonly #env: NodeJS.ProcessEnv;
  readonly #onSent: (queueName: string) => void;
  readonly #created = new Map<string, Promise<unknown>>();

  constructor(
    connections: QueueConnections,
    encoding: 'base64' | 'none',
    env: NodeJS.ProcessEnv,
    onSent: (queueName: string) => void,
  ) {
    this.#connections = connections;
    this.#encoding = encoding;
    this.#env = env;
    this.#onSent = onSent;
  }

  /** Throws at start-up for a binding that could never be written (bad name, missing connection setting). */
  validate(fn: RegisteredFunction): void {
    for (const binding of Object.values(fn.metadata.bindings)) {
      if (!isQueueOutput(binding)) continue;
      const queueName = resolveQueueName(binding.queueName, this.#env);
      this.#connections.queue(binding.connection, queueName);
    }
  }

  async flush(fn: RegisteredFunction, response: RpcInvocationResponse): Promise<void> {
    for (const [name, binding] of Object.entries(fn.metadata.bindings)) {
      if (!isQueueOutput(binding)) continue;
      const messages = outputMessages(outputValue(response, name));
      if (messages.length === 0) continue;
      const queueName = resolveQueueName(binding.queueName, this.#env);
      const client = this.#connections.queue(binding.connection, queueName);
      await this.#ensure(client, queueName);
      for (const message of messages) await client.sendMessage(encodeMessage(message, this.#encoding));
      this.#onSent(queueName);
    }
  }

  #ensure(client: QueueClient, queueName: string): Promise<unknown> {
    let created = this.#created.get(queueName);
    if (!created) {
      created = client.createIfNotExists().catch((err: unknown) => {
        this.#created.delete(queueName);
        throw err;
      });
      this.#created.set(queueName, created);
    }
    return created;
  }
}
