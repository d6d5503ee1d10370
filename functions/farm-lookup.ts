import { farmLookup } from '../shared/http/contracts';
import { endpoint } from '../shared/http/endpoint';
import { registerHttp } from '../shared/http/register';
import { findFarmView } from '../shared/farms/farm-service';

registerHttp(
  farmLookup,
  endpoint(farmLookup, async ({ client, query, services }) => ({
    status: 200,
    rawJson: await findFarmView(services.farms, client, query.rea, query.year),
  })),
);
