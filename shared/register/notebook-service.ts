import type { NotebookAnswer } from '../api/notebook-schemas';
import { DomainError, violation } from '../domain/errors';
import type { ExportKinds } from '../export/export-kinds';
import { refUrn } from '../export/record-ref';
import type { FarmIndex } from '../farms/farm-index';
import type { ExportState } from '../records/export-state';
import { recordIdOf } from '../records/record-keys';
import { IuwsError } from '../siex/iuws-errors';
import type { SiexEntry, SiexRegister } from '../siex/iuws-register';
import { GatewayRecordBlocks, HeldState, reconcileNotebook } from './notebook-reconciliation';

/** How long a caller is told to wait before asking again when SIEX could not be read. */
const SIEX_RETRY_AFTER_SECONDS = 30;

/**
 * The blocks the gateway holds SIEX has of a record, by its export state: those SIEX took (exported), or the earlier
 * version SIEX holds (changed); under an unknown outcome, what the gateway knew before the job. None for a record SIEX
 * has no copy of from the gateway, or one registered as sent elsewhere (SIEX holds it under an IdAjena the gateway
 * does not know, so it is among SIEX's own entries).
 */
function heldBlocks(state: ExportState): { state: HeldState; blocks: number[] } | null {
  if (state.kind === 'exported' || state.kind === 'changed') return { state: state.kind, blocks: state.siexBlocks };
  if (state.kind === 'outcome-unknown' && state.known.kind !== 'unsent')
    return { state: state.kind, blocks: state.known.siexBlocks };
  return null;
}

/** Every record of the farm campaign the gateway holds SIEX has, kind by kind, each with its kind's CUE section. */
async function gatewayBlocks(kinds: ExportKinds, farm: FarmIndex): Promise<GatewayRecordBlocks[]> {
  const perKind = await Promise.all(
    kinds.all().map(async (kind) => {
      const keys = await kind.keys.keys(farm.meta);
      const pointers = await kind.store.readPointers(farm.meta, keys.map(recordIdOf));
      return [...pointers.values()].flatMap((p) => {
        const held = heldBlocks(p.exportState);
        return held ? [{ record: refUrn({ type: kind.urnType, id: p.id }), section: kind.cue.section, ...held }] : [];
      });
    }),
  );
  return perKind.flat();
}

/** What SIEX holds of the farm campaign, or a 503 saying SIEX could not be read (nothing the caller did wrong). */
async function siexBlocks(register: SiexRegister, farm: FarmIndex): Promise<SiexEntry[]> {
  try {
    return await register.notebook(farm.meta.codigoRea, farm.meta.year);
  } catch (e) {
    if (!(e instanceof IuwsError)) throw e;
    throw new DomainError(
      'SIEX could not be read now: the reconciliation needs what SIEX holds of the farm.',
      [violation('SIEX_READ_FAILED', '', e.message)],
      SIEX_RETRY_AFTER_SECONDS,
    );
  }
}

/**
 * The reconciliation of a farm campaign the caller may see: SIEX's notebook (`exportar`) against the records the
 * gateway marks exported, block by block (notebook-reconciliation.ts). No kind is named: each comes from the registry
 * with its section.
 */
export async function farmNotebook(
  p: { kinds: ExportKinds; register: SiexRegister },
  farm: FarmIndex,
  agrifarmId: string,
): Promise<NotebookAnswer> {
  const { codigoRea, year } = farm.meta;
  if (codigoRea.length !== 14)
    throw new DomainError('The farm has no REA code SIEX knows it by.', [
      violation('FARM_WITHOUT_REA_CODE', 'query.agrifarmId', `farm ${agrifarmId} has no codigoRea in the back office`),
    ]);
  const [gateway, siex] = await Promise.all([gatewayBlocks(p.kinds, farm), siexBlocks(p.register, farm)]);
  return { agrifarmId, codigoRea, campaign: year, ...reconcileNotebook(gateway, siex) };
}
