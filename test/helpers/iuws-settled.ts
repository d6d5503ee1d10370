import { IuwsClient, IuwsStatus } from '../../shared/siex/iuws-client';

/** SIEX's outcome of a request, asked until it has one; the ceiling is one only a hang reaches. */
export async function settledStatus(client: IuwsClient, id: string, timeoutMs = 25_000): Promise<IuwsStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await client.status(id);
    if (status.state === 'done') return status;
    if (Date.now() > deadline) throw new Error(`request ${id} still pending after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
