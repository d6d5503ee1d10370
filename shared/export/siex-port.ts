import { LogEvents } from '../log/log-events';
import { Logger } from '../log/logger';
import { IuwsError } from '../siex/iuws-client';
import { Clock } from '../time/clock';

/** What a job needs of SIEX (the IUWS client); tests may pass their own. */
export interface SiexPort {
  /** Fails when SIEX cannot be used at all (not configured, credentials refused), before anything is sent. */
  ready(signal?: AbortSignal): Promise<void>;
  submit(document: unknown, idempotencyKey: string, signal?: AbortSignal): Promise<string>;
  status(requestId: string, signal?: AbortSignal): Promise<SiexStatus>;
}

/** Where a request stands in SIEX, and each block's verdict once it is done. */
interface SiexStatus {
  state: 'pending' | 'done';
  results: BlockVerdict[];
}

/** SIEX's verdict on one block, by its section and IdAjena (each kind's IdAjena is its own sequence). */
export interface BlockVerdict {
  externalId: number;
  section: string;
  ok: boolean;
  errors: { code: string; message: string }[];
}

/** SIEX refused the request itself (the document, the key, the request id): asking again the same way cannot help. */
export function refusedBySiex(e: unknown): e is IuwsError {
  return e instanceof IuwsError && e.code === 'SIEX_REJECTED';
}

/** SIEX's own words on a refusal (its code and description), without the gateway's internals. */
export function siexWords(e: IuwsError): string {
  return e.details ? `refused by SIEX: ${e.details.codigo}: ${e.details.descripcion}`.slice(0, 500) : 'refused by SIEX';
}

/** Whether a failed call may have reached SIEX (unless the IUWS client says for certain it did not). */
export const mayHaveReached = (e: unknown): boolean => !(e instanceof IuwsError) || e.reachedSiex;

/** One call to SIEX, logged with how long it took and how it ended (`siex.call`); its failure is passed on. */
export async function siexCall<T>(
  { log, clock }: { log?: Logger | undefined; clock: Clock },
  at: { jobId: number; operation: LogEvents['siex.call']['operation']; batch?: number },
  call: () => Promise<T>,
): Promise<T> {
  const started = clock.now();
  const logged = (outcome: string, siexState?: unknown) =>
    log?.event(
      'siex.call',
      {
        ...at,
        outcome,
        durationMs: clock.now() - started,
        ...(siexState === 'pending' || siexState === 'done' ? { siexState } : {}),
      },
      outcome === 'ok' ? 'info' : 'warn',
    );
  try {
    const result = await call();
    logged('ok', (result as { state?: unknown } | undefined)?.state);
    return result;
  } catch (e) {
    logged(e instanceof IuwsError ? e.code : 'WORKER_ERROR');
    throw e;
  }
}
