import { Health } from '../api/health-schemas';
import { SiexProbe, isUnresolvedReference } from './siex-probe';

/**
 * GET /v1/health (issue 36): whether the gateway can serve its clients now. Three checks decide it, each the thing an
 * outage of the review came from: its tables answer, its queues answer (exports and webhook deliveries, each with its
 * poison queue), and no setting Azure resolves from Key Vault is left unresolved (the platform leaves the reference's
 * text in the setting, and exports then fail). SIEX is probed too, and reported, but does not decide it: SIEX down is
 * not the gateway down, and has an alert of its own.
 */
export interface HealthDeps {
  /** A read of the gateway's tables. */
  readTables: () => Promise<unknown>;
  /** Messages waiting in each of the app's queues (APP_QUEUES, shared/store/queues.ts). */
  queueDepths: () => Promise<Record<string, number>>;
  /** The process's settings as Azure set them, by name. */
  settings: Record<string, string | undefined>;
  probeSiex: () => Promise<SiexProbe>;
  now: () => number;
}

/** How long a check took, and whether it threw (a failure is the check failing, not the health call). */
async function timed<T>(deps: HealthDeps, check: () => Promise<T>): Promise<{ value?: T; ok: boolean; ms: number }> {
  const started = deps.now();
  try {
    const value = await check();
    return { value, ok: true, ms: Math.round(deps.now() - started) };
  } catch {
    return { ok: false, ms: Math.round(deps.now() - started) };
  }
}

export async function checkHealth(deps: HealthDeps): Promise<{ health: Health; probe: SiexProbe }> {
  const [tables, queues, probe] = await Promise.all([
    timed(deps, deps.readTables),
    timed(deps, deps.queueDepths),
    deps.probeSiex(),
  ]);
  const unresolved = Object.entries(deps.settings)
    .filter(([, value]) => isUnresolvedReference(value))
    .map(([name]) => name)
    .sort();
  const checks = {
    tables: { ok: tables.ok, ms: tables.ms },
    queues: { ok: queues.ok, waiting: queues.value ?? {} },
    keyVaultReferences: { ok: unresolved.length === 0, unresolved },
    siex: { outcome: probe.outcome, ms: probe.durationMs },
  };
  const ok = checks.tables.ok && checks.queues.ok && checks.keyVaultReferences.ok;
  return { health: { status: ok ? 'ok' : 'failing', checks }, probe };
}
