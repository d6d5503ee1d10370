import { Services } from '../../shared/app/services';
import { Client } from '../../shared/clients/client-store';
import { jobHolding } from '../../shared/export/deletion-service';
import { fertilizationKind } from '../../shared/fertilization/fertilization-kind';
import { amendRecord } from '../../shared/records/amend-record';
import { registerRecord } from '../../shared/records/register-record';
import { TEST_MAX_BACKDATE_DAYS } from './dataset';
import { fertilizationEntry } from '../../shared/fertilization/kind-entry';

/**
 * Fertilizations registered and amended through the records core's services with the fertilization kind, for the
 * export tests while the fertilization HTTP routes are not there yet. `id` gives the record a chosen id (a test that
 * needs fertilization n beside treatment n).
 */
type Body = Record<string, unknown>;

async function judging(svc: Services, id?: number) {
  const ids = id === undefined ? (await svc.exportKinds()).of(fertilizationKind.urnType).ids : { take: async () => id };
  return {
    kind: fertilizationKind,
    store: svc.kinds.of(fertilizationEntry).store,
    ids,
    farms: svc.farms,
    reference: svc.reference,
    settings: { MAX_BACKDATE_DAYS: TEST_MAX_BACKDATE_DAYS },
  };
}

export async function seedFertilization(
  svc: Services,
  client: Client,
  agrifarmId: string,
  body: Body,
  id?: number,
): Promise<number> {
  const input = { client, agrifarmId, exported: false, body, idempotencyKey: null };
  const result = await registerRecord(await judging(svc, id), input);
  if (result.outcome !== 'created') throw new Error(`the fertilization was not registered: ${result.outcome}`);
  return Number(
    String((JSON.parse(result.answerJson) as { id: string }[])[0].id)
      .split(':')
      .pop(),
  );
}

export async function amendFertilization(
  svc: Services,
  client: Client,
  agrifarmId: string,
  recordId: number,
  patch: Body,
): Promise<void> {
  const deps = { ...(await judging(svc)), heldByJob: jobHolding(svc.jobs) };
  const result = await amendRecord(deps, { client, agrifarmId, recordId, ifMatch: null, idempotencyKey: null, patch });
  if (result.outcome !== 'current') throw new Error(`the fertilization was not amended: ${result.outcome}`);
}
