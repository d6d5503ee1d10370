import { call, get, Keys, postJson, Reply } from './http';
import { checkProblemShape } from './spec-shapes';

/**
 * A record kind's operations over HTTP for one farm campaign of one client (register, list, read, amend, delete), and
 * what the tests read of their answers: the calls every kind's end-to-end test makes, written once.
 */
export function kindCalls(collection: string, keys: Keys, agrifarmId: () => string) {
  const query = (extra: Record<string, string> = {}) =>
    new URLSearchParams({ agrifarmId: agrifarmId(), ...extra }).toString();
  const recordPath = (id: string) => `${collection}${encodeURIComponent(id)}?${query()}`;
  return {
    query,
    register: (body: unknown) => postJson(`${collection}?${query()}`, body, keys),
    list: (extra: Record<string, string> = {}) => get(`${collection}?${query(extra)}`, keys),
    read: (id: string) => get(recordPath(id), keys),
    remove: (id: string) => call('DELETE', recordPath(id), { keys }),
    patch: (id: string, changes: unknown, headers: Record<string, string> = {}) =>
      call('PATCH', recordPath(id), {
        keys,
        headers: { 'Content-Type': 'application/merge-patch+json', ...headers },
        body: JSON.stringify(changes),
      }),
  };
}

/** A 201's record, its id and ETag; anything else fails the test with the answer. */
export function created(res: Reply): { id: string; etag: string; record: any } {
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
  return { id: res.json[0].id, etag: res.headers.get('etag') ?? '', record: res.json[0] };
}

/** A problem answer with this status and exactly these violations (`CODE path`), in the problem's shape. */
export function expectProblem(res: Reply, status: number, errors: string[]): void {
  expect([res.status, res.json?.errors?.map((e: { code: string; path: string }) => `${e.code} ${e.path}`)]).toEqual([
    status,
    errors,
  ]);
  checkProblemShape(res.json, status);
}
