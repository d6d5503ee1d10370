import { Client } from '../clients/client-store';
import { idempotencyHash, replay, requestFingerprint } from '../idempotency/idempotency';
import { FarmKey } from '../phyto/phyto-keys';
import { PhytoStore } from '../phyto/phyto-store';

/**
 * Idempotency-Key for operations that are not a single transaction (starting an export): the first response is
 * remembered after the operation succeeded, and a repeat returns it. A repeat racing the first one finds the records
 * already in the first job and gets 409, so it can never start a second job for the same records.
 */
export async function withIdempotency(
  phyto: Pick<PhytoStore, 'readIdempotency' | 'writeIdempotency'>,
  farm: FarmKey,
  client: Client,
  key: string | null,
  request: unknown,
  run: () => Promise<{ status: number; body: string }>,
): Promise<{ status: number; body: string }> {
  if (!key) return run();
  const hash = idempotencyHash(client.id, key);
  const fingerprint = requestFingerprint(request);
  const previous = await phyto.readIdempotency(farm, hash);
  if (previous) return replay(previous, fingerprint);
  const result = await run();
  await phyto.writeIdempotency(farm, hash, { requestHash: fingerprint, ...result });
  return result;
}
