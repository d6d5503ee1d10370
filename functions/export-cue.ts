import { UseCases } from '../shared/app/use-cases';
import { exportCue } from '../shared/http/contracts/export-cue';
import { HandleOf } from '../shared/http/endpoint';
import { exportReply } from '../shared/http/export-reply';
import { idempotencyKey } from '../shared/http/idempotency';
import { serve } from '../shared/app/serve';

export const exportToSiex: HandleOf<typeof exportCue, UseCases> = async ({ client, query, body, request }, useCases) =>
  exportReply(
    await useCases.exportRecords({
      client,
      agrifarmId: query.agrifarmId,
      body,
      pending: query.pending === 1,
      idempotencyKey: idempotencyKey(request),
    }),
  );

export const handler = serve(exportCue, exportToSiex);
