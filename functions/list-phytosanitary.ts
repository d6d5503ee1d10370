import { listPhyto } from '../shared/http/contracts';
import { endpoint } from '../shared/http/endpoint';
import { paginationHeaders } from '../shared/http/pagination';
import { registerHttp } from '../shared/http/register';
import { accessibleFarm } from '../shared/farms/farm-service';
import { listRecords } from '../shared/phyto/list-service';

registerHttp(
  listPhyto,
  endpoint(listPhyto, async ({ client, query, request, services }) => {
    const farm = await accessibleFarm(services.farms, client, query.agrifarmId);
    const page = await listRecords(
      services.phyto,
      services.recordKeys,
      farm.meta.farmId,
      Object.fromEntries(request.query.entries()),
      query,
    );
    return { status: 200, json: page.records, headers: paginationHeaders(request.url, page.total, page.page) };
  }),
);
