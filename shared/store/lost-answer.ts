import { isRestError } from './azure-sdk';

/**
 * Runs a write that storage may carry out and whose answer it may lose (a 503 or a time-out after the fact): the SDK
 * then retries it, and the retry is refused as a conflict (409, 412). On a conflict `landed` looks at what is stored
 * and says whether it is this write's own (known by an id never handed out twice), giving what the write would have
 * returned; undefined means someone else's, and the conflict stands. docs/architecture.md, "Lost answers".
 */
export async function despiteLostAnswer<T>(write: () => Promise<T>, landed: () => Promise<T | undefined>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (!isRestError(e, 409, 412)) throw e;
    const own = await landed();
    if (own === undefined) throw e;
    return own;
  }
}
