/**
 * Every structured event the gateway writes, by name, with its fields: docs/operations.md ("Logs") documents each, and
 * the alert rules (infra/monitoring/export-*.kql) read them by these names. Every event also carries `event` (its name)
 * and `correlationId` (the request's that started the work, or the job's). No field holds a key or a person's
 * identifier in clear: texts pass through maskPersonalData (personal-data.ts) before they are written.
 */
export interface LogEvents {
  /** An export or deletion job moved: from null when it was created (Iniciando). */
  'job.state': {
    jobId: number;
    kind: 'export' | 'deletion';
    /** Status names (shared/export/job-status.ts). */
    from: string | null;
    to: string;
    total: number;
    settled: number;
    accepted: number;
    /** Why a job is Fallido. */
    errorCode?: string;
  };
  /** One call to SIEX as the export worker made it (retries inside it included): how long, and how it ended. */
  'siex.call': {
    jobId: number;
    operation: 'comunicacion' | 'crear' | 'comprobarEstado';
    /** The job's batch the call was about (none for comunicacion). */
    batch?: number;
    /** `ok`, or the IUWS failure's code (SIEX_TIMEOUT, SIEX_REJECTED...; WORKER_ERROR for anything else). */
    outcome: string;
    durationMs: number;
    /** comprobarEstado: whether SIEX had finished (`done`) or not (`pending`). */
    siexState?: 'pending' | 'done';
  };
  /** The job's e-mail: sent, refused for good by the mail service, or failed (the delivery is retried). */
  'mail.sent': {
    jobId: number;
    purpose: 'outcome' | 'reconciled';
    outcome: 'sent' | 'refused' | 'failed';
    /** The address with its mailbox hidden. */
    to: string;
    durationMs: number;
  };
  /**
   * One try to deliver a job's event to a client's webhook (each client of the farm has its own): delivered, failed
   * (tried again later), or abandoned (tried for 25 hours, or its URL refused).
   */
  'webhook.sent': {
    jobId: number;
    /** The event's id, the same on every try (evt_job_<jobId>_<purpose>). */
    eventId: string;
    /** The client the event was sent to. */
    clientId: string;
    outcome: 'delivered' | 'failed' | 'abandoned';
    /** Tries so far, this one included. */
    attempts: number;
    durationMs: number;
    /** Why the try failed (`answered HTTP 503`, `not delivered: TimeoutError`, `refused: 10.0.0.5 is private`). */
    detail?: string;
  };
  /**
   * A delivery message found in the poison queue (the queue gave up on it, the storage being out of reach), put back
   * on the delivery queue (`redriven`) or, past its 25 hours, given up (`abandoned`): what the poison alert counts.
   */
  'webhook.poisoned': {
    jobId: number;
    eventId: string;
    clientId: string;
    attempts: number;
    action: 'redriven' | 'abandoned';
  };
  /** A delivery put back on its queue untried: its client had as many deliveries running as it may have at once. */
  'webhook.deferred': { jobId: number; eventId: string; clientId: string; delayMs: number };
  /** A delivery not sent: its client chose not to hear events of its type (PUT /v1/webhooks `events`). */
  'webhook.skipped': { jobId: number; eventId: string; clientId: string; type: string };
  /** What the job's owner is not shown of a failure (SIEX's words, addresses, settings), for the operators. */
  'job.problem': { jobId: number; detail: string };
  /** The sweeper queued stalled jobs again, or dropped the watch rows of jobs never created. */
  'sweep.done': { queued: number[]; dropped: number[] };
  /** A queue message the worker could not read a job id from. */
  'message.ignored': { detail: string };
  /**
   * An HTTP request that failed on the gateway's side (503 storage unavailable, 503 a stored total that cannot be read,
   * 500 unhandled).
   */
  'request.failed': {
    operation: string;
    code: 'STORAGE_UNAVAILABLE' | 'STORED_DATA_UNREADABLE' | 'INTERNAL';
    detail: string;
  };
  /** The daily check of SIEX's client certificate: when it expires, or why it could not be read. */
  'siex.certificate': { notAfter?: string; daysLeft?: number; unreadable?: string };
  /**
   * A call to SIEX's address made by GET /v1/health (every 5 minutes from three locations, by the availability test):
   * whether SIEX answered, before any export needs it. The `siex-unreachable` alert reads these.
   */
  'siex.probe': { outcome: 'reachable' | 'unreachable' | 'not-configured'; durationMs: number; detail?: string };
  /**
   * The nightly table backup wrote a snapshot's manifest. `manifestSha256` is the copy of its checksum kept outside the
   * backup account, which a restore into a new data account is given (docs/operations.md, "Restore everything").
   */
  'backup.written': { snapshot: string; rows: Record<string, number>; manifestSha256: string };
}

export type EventName = keyof LogEvents;

/** Fields every event carries besides its own. */
export const COMMON_FIELDS = ['event', 'correlationId'] as const;

/**
 * Every event's fields by name, for the check that the alert and workbook queries read only events the app writes and
 * fields they carry (test/infra/kql.ts); the compiler checks each name against LogEvents.
 */
export const EVENT_FIELDS: { [N in EventName]: readonly (keyof LogEvents[N])[] } = {
  'job.state': ['jobId', 'kind', 'from', 'to', 'total', 'settled', 'accepted', 'errorCode'],
  'siex.call': ['jobId', 'operation', 'batch', 'outcome', 'durationMs', 'siexState'],
  'mail.sent': ['jobId', 'purpose', 'outcome', 'to', 'durationMs'],
  'webhook.sent': ['jobId', 'eventId', 'clientId', 'outcome', 'attempts', 'durationMs', 'detail'],
  'webhook.deferred': ['jobId', 'eventId', 'clientId', 'delayMs'],
  'webhook.poisoned': ['jobId', 'eventId', 'clientId', 'attempts', 'action'],
  'webhook.skipped': ['jobId', 'eventId', 'clientId', 'type'],
  'job.problem': ['jobId', 'detail'],
  'sweep.done': ['queued', 'dropped'],
  'message.ignored': ['detail'],
  'request.failed': ['operation', 'code', 'detail'],
  'siex.certificate': ['notAfter', 'daysLeft', 'unreadable'],
  'siex.probe': ['outcome', 'durationMs', 'detail'],
  'backup.written': ['snapshot', 'rows', 'manifestSha256'],
};
