import type { HttpRequest, HttpResponseInit } from '@azure/functions';
import type { RunningSiexSimulator } from './server';

/**
 * The SIEX simulator as an Azure Function App, the sandbox profile's SIEX (docs/sandbox.md, infra/modules/
 * siexSimulator.bicep). The simulator is a plain Node HTTP server with its state in memory; here it runs inside the
 * function host's worker, on the loopback interface, started by the first request, and every invocation is handed to
 * it over HTTP as it came (method, path, query, headers, body) and its answer handed back. So the Function App answers
 * exactly what `npm start`'s simulator answers, from the same code, and the app's one instance (maximumInstanceCount 1)
 * holds one SIEX.
 *
 * Two doors: the IUWS endpoints are anonymous, as SIEX's are (comunicacion checks the user and password), and the
 * knobs and inspection endpoints (/_control, /_inspect) need a function key. The anonymous door refuses those paths
 * itself, so they stay behind the key whichever route the host picks.
 */

/** The operator's endpoints of the simulator (server.ts): on the internet, only with a function key. */
const OPERATOR_PREFIXES = ['/_control', '/_inspect'];

export function isOperatorPath(pathname: string): boolean {
  return OPERATOR_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/** Headers that describe one hop's connection, not the message: never passed on. */
const HOP_HEADERS = new Set([
  'connection',
  'content-length',
  'host',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'expect',
]);

const passable = (headers: Iterable<[string, string]>): [string, string][] =>
  [...headers].filter(([name]) => !HOP_HEADERS.has(name.toLowerCase()));

const json = (status: number, body: unknown): HttpResponseInit => ({ status, jsonBody: body });

export type SimulatorHandler = (request: HttpRequest) => Promise<HttpResponseInit>;

/**
 * The invocation handlers over one simulator, started on the first call (`start`) and kept for the worker's life.
 * `operator` is the key-protected door; `iuws` the anonymous one, which refuses the operator's paths.
 */
export function simulatorHandlers(start: () => Promise<RunningSiexSimulator>): {
  iuws: SimulatorHandler;
  operator: SimulatorHandler;
} {
  let running: Promise<RunningSiexSimulator> | undefined;
  const simulator = () => {
    running ??= start().catch((e: unknown) => {
      running = undefined; // the next request tries again
      throw e;
    });
    return running;
  };

  const forward = async (request: HttpRequest, pathname: string, search: string): Promise<HttpResponseInit> => {
    const { url } = await simulator();
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    let answer: Response;
    try {
      answer = await fetch(`${url}${pathname}${search}`, {
        method: request.method,
        headers: passable(request.headers.entries()),
        ...(hasBody ? { body: Buffer.from(await request.arrayBuffer()) } : {}),
        redirect: 'manual',
      });
    } catch (e) {
      // The simulator dropped the connection (its crearLosesAnswer knob): a host cannot drop its caller's, so it says
      // what happened with a 502, which the gateway retries as it retries a lost answer.
      return json(502, {
        codigo: 'RESPUESTA_PERDIDA',
        descripcion: `the simulator gave no answer: ${(e as Error).message}`,
      });
    }
    return {
      status: answer.status,
      headers: Object.fromEntries(passable(answer.headers.entries())),
      body: new Uint8Array(await answer.arrayBuffer()),
    };
  };

  return {
    iuws: (request) => {
      const { pathname, search } = new URL(request.url);
      if (isOperatorPath(pathname))
        return Promise.resolve(
          json(404, { codigo: 'NO_ENCONTRADO', descripcion: `no endpoint ${request.method} ${pathname}` }),
        );
      return forward(request, pathname, search);
    },
    operator: (request) => {
      const { pathname, search } = new URL(request.url);
      if (!isOperatorPath(pathname))
        return Promise.resolve(
          json(404, { codigo: 'NO_ENCONTRADO', descripcion: `no endpoint ${request.method} ${pathname}` }),
        );
      return forward(request, pathname, search);
    },
  };
}

/** The Function App's settings (siexSimulator.bicep): the credentials comunicacion accepts. */
export function simulatorCredentials(env: NodeJS.ProcessEnv): { username: string; password: string } {
  const username = env.SIMULATOR_USERNAME;
  const password = env.SIMULATOR_PASSWORD;
  // A Key Vault reference that did not resolve stays as its text: refuse it rather than accept it as the password.
  if (!username || !password || password.startsWith('@Microsoft.KeyVault('))
    throw new Error(
      'SIMULATOR_USERNAME and SIMULATOR_PASSWORD must be set (the vault secret siex-password: docs/sandbox.md)',
    );
  return { username, password };
}
