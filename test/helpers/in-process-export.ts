import { DateTime } from 'luxon';
import { PhytoRequest } from '../../shared/phyto/wire';
import { Services } from '../../shared/app/services';
import { Client } from '../../shared/clients/client-store';
import { FarmIndex } from '../../shared/farms/farm-index';
import { accessibleFarm } from '../../shared/farms/farm-service';
import { parseSettings } from '../../shared/config/config';
import type { SiexPort } from '../../shared/export/siex-port';
import { createIuwsClient } from '../../shared/siex/iuws-client';
import { CueSection } from '../../shared/siex/iuws-protocol';
import { CAMPAIGN } from './dataset';
import { StorageSettings } from './storage';
import { sendableFarm, SIEX_FIELDS } from './export-stack';
import { body, inProcessRegister, inProcessServices, seedPhyto, testClient, uniqueRea } from './phyto-stack';

/**
 * What the in-process export tests share: a farm SIEX can take, of their own, on the real Azurite; its client as the
 * gateway sees it; and records registered on it through the POST handler, as an ERP would register them.
 */
export interface InProcessFarm {
  svc: Services;
  me: Client;
  farm: FarmIndex;
  agrifarmId: string;
  /**
   * Registers `n` records on the farm's vine, one enclosure after another, each with the SIEX fields or with those
   * `fields` gives it; their ids.
   */
  registerSendable(n: number, fields?: (i: number) => Partial<PhytoRequest>): Promise<number[]>;
}

export async function inProcessFarm(
  label: string,
  scope: string,
  vineEnclosures?: number,
  storage?: StorageSettings,
): Promise<InProcessFarm> {
  const rea = uniqueRea();
  const client = testClient(label, [rea]);
  const keys = { sidKey: client.sidKey, apiKey: client.apiKey };
  await seedPhyto({ farms: [sendableFarm(rea, vineEnclosures)], clients: [client] });
  const svc = inProcessServices(0, scope, storage);
  const me = (await svc.gate.findClient(client.sidKey))!;
  const info = (await svc.farms.lookupInfo(rea, CAMPAIGN))!;
  const agrifarmId = `urn:ngsi-ld:AgriFarm:${info.farmId}`;
  const farm = await accessibleFarm(svc.farms, me, agrifarmId);
  const register = inProcessRegister(svc, () => DateTime.now());
  const vine = farm.doc.idcps.filter((e) => farm.cropOf(e).typecropId === '102').map((e) => String(e.idcp));
  return {
    svc,
    me,
    farm,
    agrifarmId,
    async registerSendable(n, fields = () => SIEX_FIELDS) {
      const ids: number[] = [];
      for (let i = 0; i < n; i++) {
        const res = await register(
          keys,
          agrifarmId,
          JSON.stringify(body({ idcp: [vine[i % vine.length]], ...fields(i) })),
        );
        if (res.status !== 201) throw new Error(`register: ${res.status} ${res.text}`);
        ids.push(Number(String(res.json[0].id).split(':').pop()));
      }
      return ids;
    },
  };
}

/**
 * The IUWS client the worker would build, to a SIEX simulator at `url`, told the `sections` the gateway sends: quick
 * retries, `attempts` tries a call.
 */
export function simulatorIuws(url: string, sections: readonly CueSection[], attempts = 4): SiexPort {
  return createIuwsClient(
    parseSettings({
      AzureWebJobsStorage: 'UseDevelopmentStorage=true',
      SIEX_BASE_URL: url,
      SIEX_USERNAME: 'siex-local',
      SIEX_PASSWORD: 'siex-local',
      SIEX_TIMEOUT_MS: '5000',
      SIEX_MAX_ATTEMPTS: String(attempts),
      SIEX_RETRY_BASE_MS: '5',
    }),
    sections,
  );
}
