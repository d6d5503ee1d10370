import { RpcLogCategory, RpcLogLevel } from '../functions-core/types';
import { Secrets } from './redact';

/**
 * The runner's console output. One compact line per invocation (suppressed by --quiet), the app's own logs
 * prefixed with the function name, warnings and errors always shown (on stderr) so a failing test can see them.
 */
export interface RunnerLogger {
  /** Start-up and shutdown notices. */
  info(message: string): void;
  warn(message: string): void;
  error(message: string, err?: unknown): void;
  /** `GET /v1/x 200 12ms`-style access lines; with --verbose, `details` (the request's headers) follow, indented. */
  invocation(line: string, details?: () => string[]): void;
  /** A log written through `context.log` / `context.warn`... or by the library (`system`). */
  app(level: RpcLogLevel, category: RpcLogCategory, functionName: string | undefined, message: string): void;
  /** A request's credential headers: their values are hidden from this line on, wherever they appear. */
  learnKeys(headers: Record<string, string>): void;
}

interface LoggerOptions {
  quiet?: boolean;
  verbose?: boolean;
  out?: (line: string) => void;
  err?: (line: string) => void;
  /** Key values no line may show (local/runner/redact.ts); every line is scrubbed of them before it is written. */
  secrets?: Secrets;
  /**
   * Takes every log of the app's own as it is, before any scrubbing: what the Functions host would send to
   * Application Insights, so that a test can check the app itself never logs a key or a person's identifier.
   */
  telemetry?: (entry: { level: RpcLogLevel; category: RpcLogCategory; functionName?: string; message: string }) => void;
}

export function formatError(err: unknown): string {
  if (err instanceof Error) return err.stack ?? `${err.name}: ${err.message}`;
  return String(err);
}

export function createLogger(options: LoggerOptions = {}): RunnerLogger {
  const secrets = options.secrets ?? new Secrets();
  const write = options.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const writeErr = options.err ?? ((line: string) => process.stderr.write(`${line}\n`));
  const out = (line: string) => write(secrets.scrub(line));
  const err = (line: string) => writeErr(secrets.scrub(line));
  return {
    learnKeys: (headers) => secrets.addHeaders(headers),
    info: (message) => out(message),
    warn: (message) => err(`warning: ${message}`),
    error: (message, e) => err(e === undefined ? `error: ${message}` : `error: ${message}\n${formatError(e)}`),
    invocation: (line, details) => {
      if (options.quiet) return;
      out(line);
      if (options.verbose && details) for (const detail of details()) out(`  ${detail}`);
    },
    app: (level, category, functionName, message) => {
      options.telemetry?.({ level, category, ...(functionName ? { functionName } : {}), message });
      const prefix = `[${functionName ?? (category === 'system' ? 'functions' : 'app')}]`;
      if (level === 'warning' || level === 'error' || level === 'critical') {
        err(`${prefix} ${level}: ${message}`);
      } else if (level === 'information') {
        // The library's own information logs are host plumbing; the app's are worth seeing unless --quiet.
        if (category === 'user' ? !options.quiet : options.verbose) out(`${prefix} ${message}`);
      } else if (options.verbose && level !== 'none') {
        out(`${prefix} ${level}: ${message}`);
      }
    },
  };
}
