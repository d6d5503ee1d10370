import { readFileSync } from 'node:fs';

/** What the runner takes from `host.json`, with the host's defaults filled in. */
export interface HostConfig {
  /** `extensions.http.routePrefix` without surrounding slashes; the host's default is `api`. */
  routePrefix: string;
  queues: QueueConfig;
}

export interface QueueConfig {
  batchSize: number;
  /** Fetch the next batch when this few messages are still running (host default: batchSize / 2). */
  newBatchThreshold: number;
  maxDequeueCount: number;
  /** How long a failed message stays invisible before it is retried. */
  visibilityTimeoutMs: number;
  /** Upper bound of the idle back-off between polls. */
  maxPollingIntervalMs: number;
  messageEncoding: 'base64' | 'none';
}

type Json = Record<string, unknown>;

/** .NET configuration keys are case-insensitive, and host.json is read through it. */
function get(obj: unknown, key: string): unknown {
  if (!obj || typeof obj !== 'object') return undefined;
  const found = Object.keys(obj).find((k) => k.toLowerCase() === key.toLowerCase());
  return found === undefined ? undefined : (obj as Json)[found];
}

/**
 * Parses a .NET TimeSpan as host.json writes them: `[d.]hh:mm[:ss[.fffffff]]`, or a bare number of days.
 * Returns milliseconds.
 */
export function parseTimeSpan(value: unknown, name: string): number {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value * 86_400_000;
  const text = typeof value === 'string' ? value.trim() : '';
  const m = /^(?:(\d+)\.)?(\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,7}))?)?$/.exec(text);
  if (m) {
    const [, d = '0', h, min, s = '0', frac = ''] = m;
    const fracMs = frac ? Number(`0.${frac}`) * 1000 : 0;
    return Math.round(((Number(d) * 24 + Number(h)) * 60 + Number(min)) * 60_000 + Number(s) * 1000 + fracMs);
  }
  if (/^\d+$/.test(text)) return Number(text) * 86_400_000;
  throw new Error(`host.json: ${name} must be a TimeSpan like "00:00:30", got ${JSON.stringify(value)}`);
}

function intSetting(value: unknown, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined || value === null) return fallback;
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
    throw new Error(`host.json: ${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return n;
}

/** Turns the parsed host.json object into the runner's settings; throws naming the first invalid value. */
export function hostConfigFrom(hostJson: unknown): HostConfig {
  const extensions = get(hostJson, 'extensions');
  const http = get(extensions, 'http');
  const prefixValue = get(http, 'routePrefix');
  const routePrefix = typeof prefixValue === 'string' ? prefixValue.replace(/^\/+|\/+$/g, '') : 'api';

  const q = get(extensions, 'queues');
  // Limits as the queues extension enforces them (batchSize at most 32, polling at least 100 ms).
  const batchSize = intSetting(get(q, 'batchSize'), 'extensions.queues.batchSize', 16, 1, 32);
  const newBatchThreshold = intSetting(
    get(q, 'newBatchThreshold'),
    'extensions.queues.newBatchThreshold',
    Math.floor(batchSize / 2),
    0,
    10_000,
  );
  const maxDequeueCount = intSetting(get(q, 'maxDequeueCount'), 'extensions.queues.maxDequeueCount', 5, 1, 10_000);
  const vt = get(q, 'visibilityTimeout');
  const visibilityTimeoutMs = vt === undefined ? 0 : parseTimeSpan(vt, 'extensions.queues.visibilityTimeout');
  const mpi = get(q, 'maxPollingInterval');
  const maxPollingIntervalMs = mpi === undefined ? 60_000 : parseTimeSpan(mpi, 'extensions.queues.maxPollingInterval');
  if (maxPollingIntervalMs < 100)
    throw new Error('host.json: extensions.queues.maxPollingInterval must be at least 100 ms');
  const enc = get(q, 'messageEncoding');
  const encoding = enc === undefined ? 'base64' : typeof enc === 'string' ? enc.toLowerCase() : JSON.stringify(enc);
  if (encoding !== 'base64' && encoding !== 'none') {
    throw new Error(
      `host.json: extensions.queues.messageEncoding must be "base64" or "none", got ${JSON.stringify(enc)}`,
    );
  }
  return {
    routePrefix,
    queues: {
      batchSize,
      newBatchThreshold,
      maxDequeueCount,
      visibilityTimeoutMs,
      maxPollingIntervalMs,
      messageEncoding: encoding,
    },
  };
}

/** Reads a host.json file; a missing file means all defaults, as for the host. */
export function readHostConfig(file: string): HostConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return hostConfigFrom({});
    throw err;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  return hostConfigFrom(parsed);
}
