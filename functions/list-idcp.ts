import { listIdcp } from '../shared/http/contracts';
import { endpoint } from '../shared/http/endpoint';
import { registerHttp } from '../shared/http/register';
import { accessibleFarm, resolveIdcps } from '../shared/farms/farm-service';

registerHttp(
  listIdcp,
  endpoint(listIdcp, async ({ client, query, body, services }) => {
    const farm = await accessibleFarm(services.farms, client, query.agrifarmId);
    return { status: 200, json: resolveIdcps(farm, query.agrifarmId, body) };
  }),
);
