import { ProblemError, type Problem } from './errors';

/** Throws the problem details of an answer that is not a success; returns its data otherwise. */
export async function orThrow<D>(call: Promise<{ data?: D; error?: unknown; response: Response }>): Promise<D> {
  const { data, error, response } = await call;
  if (!response.ok || data === undefined) throw new ProblemError(response.status, error as Problem | undefined);
  return data;
}
