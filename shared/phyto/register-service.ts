import { DateTime } from 'luxon';
import { PhytoRequest } from '../api/phyto-schemas';
import { VersionedValue } from '../cache/versioned-value';
import { ReferenceData } from '../catalog/reference-data';
import { Client } from '../clients/client-store';
import { parseDateTime, ZONE } from '../domain/dates';
import { accessibleFarm } from '../farms/farm-service';
import { FarmReader } from '../farms/farm-store';
import { idempotencyHash, replay, requestFingerprint } from '../idempotency/idempotency';
import { DomainError, violation } from '../domain/errors';
import { IdSource } from '../store/counters';
import { sigpacCode } from '../farms/sigpac';
import { dayOf, withApplication } from './application-history';
import { guardRowKey } from './phyto-keys';
import { Guard, RegistrationStore, WriteConflict } from './phyto-store';
import { buildRecord } from './record-view';
import { checkApplication } from './rules';

export interface RegisterDeps {
  farms: Pick<FarmReader, 'index'>;
  reference: VersionedValue<ReferenceData>;
  store: RegistrationStore;
  ids: IdSource;
  maxBackdateDays: number;
  now?: () => DateTime;
  sleep?: (ms: number) => Promise<void>;
}

export interface RegisterInput {
  client: Client;
  agrifarmId: string;
  exported: boolean;
  body: PhytoRequest;
  idempotencyKey: string | null;
}

/**
 * Concurrent registrations on the same locations retry, with jittered exponential backoff, this many times before
 * giving up with a 503: enough for dozens of simultaneous requests on one enclosure, a burst no farm produces.
 */
export const MAX_ATTEMPTS = 60;
const MAX_BACKOFF_MS = 200;

/**
 * Validates and stores one application. The checks and the write form one optimistic transaction: history is read,
 * the rules run, and the write succeeds only if that history is unchanged, so no interleaving of concurrent requests
 * can store two applications that together break an interval or a count.
 */
export async function registerApplication(
  deps: RegisterDeps,
  input: RegisterInput,
): Promise<{ status: number; body: string }> {
  const farm = await accessibleFarm(deps.farms, input.client, input.agrifarmId);
  const appliedAt = parseDateTime(input.body.dateApplication);
  if (!appliedAt) {
    throw new DomainError('The application date is not valid.', [
      violation('INVALID_DATE', 'body.dateApplication', 'expected a real Madrid local time DD-MM-YYYY HH:mm:ss'),
    ]);
  }
  const product = input.body.subtype.code;
  const sigpacs = [
    ...new Set(input.body.idcp.flatMap((i) => farm.byIdcp.get(Number(i)) ?? []).map((e) => sigpacCode(e))),
  ];
  const idem = input.idempotencyKey
    ? {
        hash: idempotencyHash(input.client.id, input.idempotencyKey),
        requestHash: requestFingerprint({ agrifarmId: input.agrifarmId, exported: input.exported, body: input.body }),
      }
    : null;

  for (let attempt = 1; ; attempt++) {
    const [reference, state] = await Promise.all([
      deps.reference.get(),
      deps.store.readRegistrationState(farm.meta, product, sigpacs, idem?.hash ?? null),
    ]);
    if (idem && state.idempotency) return replay(state.idempotency, idem.requestHash);
    const now = (deps.now ?? (() => DateTime.now()))().setZone(ZONE);
    const { violations, resolution } = checkApplication({
      request: input.body,
      appliedAt,
      now,
      maxBackdateDays: deps.maxBackdateDays,
      farm,
      product: reference.products.get(product),
      applicator: reference.applicators.get(input.body.applicator.user.ropo),
      history: new Map([...state.guards].map(([sigpac, g]) => [sigpac, g.days])),
      codeInForce: (catalogue, code, on) => reference.codes.isValid(catalogue, code, on),
      codes: reference.codes,
    });
    if (violations.length > 0) {
      throw new DomainError('The application breaks the rules below; nothing was stored.', violations);
    }
    const id = await deps.ids.take();
    const record = buildRecord(id, input.body, reference.products.get(product)!, resolution, farm, input.exported, now);
    const day = dayOf(appliedAt);
    const guards = sigpacs.map((sigpac): Guard => {
      const g = state.guards.get(sigpac);
      const days = withApplication(g?.days ?? {}, day, 1);
      return { rowKey: g?.rowKey ?? guardRowKey(product, sigpac), sigpac, days, etag: g?.etag };
    });
    const body = JSON.stringify([record]);
    try {
      await deps.store.insert(
        farm.meta,
        { record, id, product, appliedAtMs: appliedAt.toMillis(), exported: input.exported },
        guards,
        idem && { ...idem, status: 201, body },
      );
      return { status: 201, body };
    } catch (e) {
      if (!(e instanceof WriteConflict)) throw e;
      if (attempt >= MAX_ATTEMPTS) {
        throw new DomainError(
          'Too many concurrent registrations on the same crop locations; retry shortly.',
          [violation('CONCURRENT_UPDATE', 'body.idcp', 'retry with exponential backoff')],
          1,
        );
      }
      const wait = Math.random() * Math.min(MAX_BACKOFF_MS, 2 ** attempt);
      await (deps.sleep ? deps.sleep(wait) : new Promise((r) => setTimeout(r, wait)));
    }
  }
}
