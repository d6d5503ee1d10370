/** Calls a local service's control and inspection endpoints from another process (tests, the bench). */
type ControlCall = <T>(method: 'GET' | 'POST', path: string, body?: unknown) => Promise<T>;

/** A caller for the service at baseUrl; a failed call throws with `service`'s name, the call and the answer. */
export function controlCall(baseUrl: string, service: string): ControlCall {
  const base = baseUrl.replace(/\/+$/, '');
  return async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${base}${path}`, {
      method,
      ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${service} ${method} ${path} answered ${res.status}: ${text}`);
    // A 204 (a control call that answers nothing) has no body to parse.
    return (text === '' ? undefined : JSON.parse(text)) as T;
  };
}
