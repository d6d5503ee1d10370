import { exportCue } from '../shared/http/contracts';
import { startExport } from '../shared/export/export-service';
import { withIdempotency } from '../shared/export/export-idempotency';
import { accessibleFarm } from '../shared/farms/farm-service';
import { endpoint } from '../shared/http/endpoint';
import { idempotencyKey } from '../shared/http/idempotency';
import { registerHttp } from '../shared/http/register';

registerHttp(
  exportCue,
  endpoint(exportCue, async ({ client, query, body, request, services }) => {
    const farm = await accessibleFarm(services.farms, client, query.agrifarmId);
    const result = await withIdempotency(
      services.phyto,
      farm.meta.farmId,
      client,
      idempotencyKey(request),
      { query, body },
      async () => {
        const job = await startExport(
          {
            phyto: services.phyto,
            jobs: services.jobs,
            jobIds: services.jobIds,
            enqueue: (m) => services.exportQueue.send(m),
          },
          client,
          farm,
          query.agrifarmId,
          body,
        );
        return { status: 202, body: JSON.stringify(job) };
      },
    );
    return { status: result.status, rawJson: result.body };
  }),
);
