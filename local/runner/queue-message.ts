import { randomUUID } from 'node:crypto';
import { RpcTypedData } from '../functions-core/types';

/** A message as received from the queue, in the fields the host turns into trigger data and metadata. */
export interface ReceivedMessage {
  messageId: string;
  popReceipt: string;
  /** The stored text, still encoded (base64 by default). */
  messageText: string;
  dequeueCount: number;
  insertedOn: Date;
  expiresOn: Date;
  nextVisibleOn: Date;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Decodes stored text as the host does with `messageEncoding`: `base64` must be strict base64 (the host refuses
 * anything else and sends the message to the poison queue), `none` is taken as is.
 */
export function decodeMessage(text: string, encoding: 'base64' | 'none'): Buffer | undefined {
  if (encoding === 'none') return Buffer.from(text, 'utf8');
  const compact = text.replace(/\s+/g, '');
  if (!BASE64.test(compact)) return undefined;
  return Buffer.from(compact, 'base64');
}

export function encodeMessage(content: string | Uint8Array, encoding: 'base64' | 'none'): string {
  if (encoding === 'none') return typeof content === 'string' ? content : Buffer.from(content).toString('utf8');
  return Buffer.from(typeof content === 'string' ? Buffer.from(content, 'utf8') : content).toString('base64');
}

/**
 * The trigger input: text (the library JSON-parses it when it is JSON, as with the host), or bytes when the
 * binding asks for `dataType: 'binary'`.
 */
export function triggerData(content: Buffer, dataType: unknown): RpcTypedData {
  return dataType === 'binary' ? { bytes: content } : { string: content.toString('utf8') };
}

const json = (value: unknown): RpcTypedData => ({ json: JSON.stringify(value) });

/**
 * Trigger metadata with the host's names; the library camel-cases them into `context.triggerMetadata`
 * (`id`, `dequeueCount`, `insertionTime`, `expirationTime`, `nextVisibleTime`, `popReceipt`, `queueTrigger`).
 */
export function triggerMetadata(
  message: ReceivedMessage,
  content: Buffer,
  functionName: string,
): Record<string, RpcTypedData> {
  return {
    QueueTrigger: { string: content.toString('utf8') },
    Id: json(message.messageId),
    DequeueCount: json(message.dequeueCount),
    InsertionTime: json(message.insertedOn.toISOString()),
    ExpirationTime: json(message.expiresOn.toISOString()),
    NextVisibleTime: json(message.nextVisibleOn.toISOString()),
    PopReceipt: json(message.popReceipt),
    sys: json({ MethodName: functionName, UtcNow: new Date().toISOString(), RandGuid: randomUUID() }),
  };
}

/**
 * Values an output binding produced, split into queue messages as the host does: an array is one message per
 * element; strings and bytes are sent as they are, anything else as JSON.
 */
export function outputMessages(data: RpcTypedData | null | undefined): (string | Uint8Array)[] {
  if (!data) return [];
  if (data.bytes) return [data.bytes];
  if (data.collectionBytes?.bytes) return data.collectionBytes.bytes;
  if (data.collectionString?.string) return data.collectionString.string;
  if (typeof data.string === 'string') return [data.string];
  if (typeof data.int === 'number') return [String(data.int)];
  if (typeof data.double === 'number') return [String(data.double)];
  if (typeof data.json === 'string') {
    const value: unknown = JSON.parse(data.json);
    const items = Array.isArray(value) ? value : [value];
    return items.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  }
  return [];
}
