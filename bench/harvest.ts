import { DateTime } from 'luxon';
import { FarmIndex } from '../shared/farms/farm-index';
import { FarmStore } from '../shared/farms/farm-store';
import { phytoReads } from '../shared/phyto/kind-reads';
import { PhytoStore } from '../shared/phyto/phyto-store';
import { excerptKey } from '../shared/records/kind-format';
import { HARVEST_HOLDS } from '../shared/rules/harvest-holds';
import { LIST_FARM } from './fixtures';
import { measure, Row } from './measure';
import { GatewayCall, GatewayMeasure } from './stack';

/** What the row takes of the request rows' context (bench/request-rows.ts, RowContext). */
interface HarvestRowContext {
  http: GatewayCall;
  gateway: GatewayMeasure;
  farms: FarmStore;
  phyto: PhytoStore;
  at: DateTime;
}

/** Wine grapes (PROD_VEGETAL 210), produce of the vine the bench farms grow. */
const GRAPES = '210';
const VINE = '102';

/** How the harvest reads the treatments' holds: the excerpt of them each treatment's row keeps. */
const published = phytoReads.publishes![HARVEST_HOLDS]!;
const HOLDS = { key: excerptKey(HARVEST_HOLDS, published.excerpt!), of: published.excerpt!.of };

/**
 * Issue 34's registration row: a grape harvest on the farm the list row filled with 10,000 treatments in this campaign,
 * each on another location. The pre-harvest interval reads the holds of every treatment of the holding applied since
 * 1 January of the previous year (shared/app/fact-source.ts): the excerpt column each treatment's row keeps, not the
 * records. This is the harvest's worst case on a large holding. Beside it, the storage floor: that one partition query
 * alone (the harvest's own write, one transaction, is the register row's).
 */
export async function harvestRegisterRow(p: HarvestRowContext, n = 100): Promise<Row> {
  const info = (await p.farms.lookupInfo(LIST_FARM.rea, LIST_FARM.year))!;
  const farm: FarmIndex = (await p.farms.index(info.farmId))!;
  // The list row's treatments are all on the farm's first location: harvest the others, clear of their intervals.
  const vines = farm.doc.idcps.slice(1).filter((e) => farm.cropOf(e).typecropId === VINE);
  const day = p.at.toFormat('dd-MM-yyyy');
  const register = await p.gateway(n, (i) =>
    p.http(
      'POST',
      `/v1/entities/agriharvests/?agrifarmId=urn:ngsi-ld:AgriFarm:${info.farmId}`,
      {
        type: 'AgriHarvest',
        dateStart: day,
        idcp: [String(vines[(i + n) % vines.length]!.idcp)],
        quantity: 9500,
        measure: { type: 'Measure', name: 'Kilogramo', symbol: 'kg', code: 5 },
        product: { type: 'TypePlantProduct', id: GRAPES },
      },
      201,
    ),
  );
  const since = p.at.setZone('Europe/Madrid').minus({ years: 1 }).startOf('year').toMillis();
  const floor = await measure(async () => void (await p.phyto.readHoldingSources(farm.meta, since, HOLDS)), n);
  return {
    name: 'register harvest (10,000 treatments)',
    gateway: register.latency,
    floor,
    roundTrips: register.roundTrips,
    note: "floor = the holding's treatments' holds read alone, without the harvest's write",
  };
}
