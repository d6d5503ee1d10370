import { registerPhyto } from '../shared/http/contracts';
import { endpoint } from '../shared/http/endpoint';
import { idempotencyKey } from '../shared/http/idempotency';
import { registerHttp } from '../shared/http/register';
import { registerApplication } from '../shared/phyto/register-service';

registerHttp(
  registerPhyto,
  endpoint(registerPhyto, async ({ client, query, body, request, services }) => {
    const result = await registerApplication(
      {
        farms: services.farms,
        reference: services.reference,
        store: services.phyto,
        ids: services.recordIds,
        maxBackdateDays: services.settings.MAX_BACKDATE_DAYS,
      },
      {
        client,
        agrifarmId: query.agrifarmId,
        exported: query.exported === 1,
        body,
        idempotencyKey: idempotencyKey(request),
      },
    );
    return { status: result.status, rawJson: result.body };
  }),
);
