import type { EmailClient, EmailClientOptions } from '@azure/communication-email';
import type { TokenCredential } from '@azure/identity';
import { communicationEmail, identity } from '../store/azure-sdk';
import { Settings } from '../config/settings';
import { maskEmail } from '../log/personal-data';

/**
 * Outcome e-mails through Azure Communication Services, with the official SDK (@azure/communication-email).
 *
 * - Credentials: EMAIL_CONNECTION_STRING (access key: the local e-mail stub, or ACS without identity), else
 *   EMAIL_ENDPOINT with the managed identity (DefaultAzureCredential; the Function App's identity has the
 *   Communication and Email Service Owner role, infra/modules/functionApp.bicep; https only, the SDK sends no token
 *   over plain http). A connection string to an http endpoint (the stub) gets `allowInsecureConnection: true`, which
 *   the SDK needs to talk plain http (docs/architecture.md, "Toolchain notes").
 * - Once per operationId: the id travels as ACS's `Operation-Id` header, so a repeated send (a redelivered queue
 *   message, a retry after a lost answer) names the operation already accepted instead of sending again. A 409 for a
 *   reused id is taken as "already sent" too, in case the service answers a repeat that way.
 * - Retries: the SDK's own pipeline retries 408, 429 (honouring Retry-After), 5xx and network errors (`maxRetries`
 *   tries after the first, exponential delays from `retryDelayInMs`). What is left is a MailError: `retryable` says
 *   whether a later attempt (the queue's redelivery) may help.
 * - The send is done when ACS accepted it and its operation reached a final status; if the operation is still
 *   running after `deadlineMs`, the send counts as done (accepted; a repeat would be deduplicated anyway).
 */

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** Sends once per operationId: a repeat with the same id is not sent again (ACS Operation-Id). */
  send(message: MailMessage, operationId: string): Promise<void>;
}

export class MailError extends Error {
  readonly retryable: boolean;
  readonly status?: number;
  constructor(message: string, options: { retryable: boolean; status?: number; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'MailError';
    this.retryable = options.retryable;
    if (options.status !== undefined) this.status = options.status;
  }
}

export interface MailerOptions {
  /** Retries of each HTTP call by the SDK after the first try (default 3). */
  maxRetries?: number;
  /** First retry delay of the SDK's exponential backoff (default 800 ms). */
  retryDelayInMs?: number;
  /** Polling interval of the send operation when the service gives no Retry-After (default 1000 ms). */
  pollIntervalMs?: number;
  /** How long to wait for the send operation to finish (default 60 s). */
  deadlineMs?: number;
  /** Instead of DefaultAzureCredential with EMAIL_ENDPOINT (tests). */
  credential?: TokenCredential;
}

const isHttp = (url: string) => /^http:\/\//i.test(url.trim());

function describe(e: unknown): string {
  const err = e as { message?: string; code?: string };
  return [err.code, err.message].filter(Boolean).join(': ') || String(e);
}

/** A MailError for what the SDK threw. */
function mailError(e: unknown, what: string): MailError {
  if (e instanceof MailError) return e;
  const status = (e as { statusCode?: number }).statusCode;
  if (typeof status === 'number') {
    const retryable = status === 408 || status === 429 || status >= 500;
    return new MailError(`${what}: Communication Services answered ${status}: ${describe(e)}`, {
      retryable,
      status,
      cause: e,
    });
  }
  // No HTTP status: the network, after the SDK's retries.
  return new MailError(`${what}: ${describe(e)}`, { retryable: true, cause: e });
}

export function createMailer(settings: Settings, options: MailerOptions = {}): Mailer {
  let client: EmailClient | undefined;

  function buildClient(): EmailClient {
    const pipeline: EmailClientOptions = {
      retryOptions: {
        maxRetries: options.maxRetries ?? 3,
        retryDelayInMs: options.retryDelayInMs ?? 800,
        maxRetryDelayInMs: 30_000,
      },
    };
    const { EmailClient } = communicationEmail();
    if (settings.EMAIL_CONNECTION_STRING) {
      const endpoint = /endpoint=(.*?);accesskey=/i.exec(settings.EMAIL_CONNECTION_STRING)?.[1] ?? '';
      return new EmailClient(settings.EMAIL_CONNECTION_STRING, {
        ...pipeline,
        allowInsecureConnection: isHttp(endpoint),
      });
    }
    if (settings.EMAIL_ENDPOINT) {
      const credential = options.credential ?? new (identity().DefaultAzureCredential)();
      return new EmailClient(settings.EMAIL_ENDPOINT, credential, pipeline);
    }
    throw new MailError('e-mail is not configured: set EMAIL_CONNECTION_STRING or EMAIL_ENDPOINT', {
      retryable: false,
    });
  }

  return {
    async send(message, operationId) {
      // Built on first use (the SDK loads then); a configuration error is thrown each time, never kept.
      const emailClient = (client ??= buildClient());
      // The address is a person's: errors, which end in logs, name its domain only.
      const what = `e-mail ${operationId} to ${maskEmail(message.to)}`;
      let poller;
      try {
        poller = await emailClient.beginSend(
          {
            senderAddress: settings.EMAIL_SENDER,
            recipients: { to: [{ address: message.to }] },
            content: { subject: message.subject, plainText: message.text, html: message.html },
          },
          { operationId, updateIntervalInMs: options.pollIntervalMs ?? 1000 },
        );
      } catch (e) {
        if ((e as { statusCode?: number }).statusCode === 409) return; // the operation id was used: already sent
        throw mailError(e, what);
      }
      let result;
      try {
        result = await poller.pollUntilDone({ abortSignal: AbortSignal.timeout(options.deadlineMs ?? 60_000) });
      } catch (e) {
        if ((e as { name?: string }).name === 'AbortError') return; // accepted, still running: see the note above
        const status = (e as { statusCode?: number }).statusCode;
        if (typeof status === 'number') throw mailError(e, what);
        // The operation itself ended Failed or Canceled: sending again will not help.
        throw new MailError(`${what} failed: ${describe(e)}`, { retryable: false, cause: e });
      }
      if (result.status !== 'Succeeded') {
        throw new MailError(`${what} ended ${result.status}${result.error ? `: ${result.error.message}` : ''}`, {
          retryable: false,
        });
      }
    },
  };
}
