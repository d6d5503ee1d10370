import { importDataset } from '../shared/backoffice/import';
import { Dataset } from '../shared/backoffice/dataset-schema';
import { CATALOGUES } from '../shared/app/siex-catalogues';
import { importCatalogues } from '../shared/catalog/siex-codes/import-catalogues';
import { TableStore } from '../shared/store/tables';
import { GATEWAY_TABLES } from '../shared/app/record-kinds';
import { devConnectionString, startAzurite } from '../local/azurite';
import { startMailStub } from '../local/mail-stub/server';
import { startRunnerProcess } from '../local/runner/process';
import { officialCataloguesDir } from '../local/siex-data';
import {
  RunningSiexSimulator,
  SIMULATOR_DEFAULT_CREDENTIALS,
  startSiexSimulator,
} from '../local/siex-simulator/server';
import { BENCH_CLIENT, benchDataset } from './fixtures';
import { Latency, measure } from './measure';
import { RoundTrips, startStorageProxy, StorageProxy } from './storage-proxy';

/**
 * The local stack every scenario runs against: Azurite behind the counting proxy, the bench dataset and the official
 * catalogues imported through it, the SIEX simulator and the mail outbox in this process (the runner's IUWS client
 * and mailer talk to them), and the Functions runner with storage through the proxy.
 */
export interface BenchStack {
  /** Storage through the counting proxy: what the gateway uses, and what the floors measure. */
  tables: TableStore;
  /** Azurite itself, without the proxy (the register import is not a request path: nothing to count). */
  directStorage: string;
  dataset: Dataset;
  proxy: RoundTrips;
  siex: RunningSiexSimulator;
  runnerUrl: string;
  /** The runner's environment, for scenarios that start runners of their own (the catalogue's). */
  runnerEnv: NodeJS.ProcessEnv;
  /** The bench client's keys, as every gateway request carries them. */
  headers: Record<string, string>;
  stop(): Promise<void>;
}

export async function startBenchStack(root: string, { accounts = 1 } = {}): Promise<BenchStack> {
  const azurite = await startAzurite({ projectRoot: root, inMemory: true });
  const tablePort = Number(new URL(azurite.tableEndpoint).port);
  const queuePort = Number(new URL(azurite.queueEndpoint).port);
  const blobPort = Number(new URL(azurite.blobEndpoint).port);
  const proxy = await startStorageProxy(tablePort);
  const viaProxy = devConnectionString(proxy.port, queuePort, blobPort);
  // More data accounts (`npm run bench -- peak --accounts 2`, issue 37): an Azurite each, behind a proxy of its own,
  // as `npm start -- --accounts N` runs them; farms spread over all of them, the core's tables stay in the first.
  const more = await Promise.all(
    Array.from({ length: accounts - 1 }, async () => {
      const account = await startAzurite({ projectRoot: root, inMemory: true });
      const accountProxy = await startStorageProxy(Number(new URL(account.tableEndpoint).port));
      const { port } = new URL(account.queueEndpoint);
      const blob = new URL(account.blobEndpoint).port;
      return { account, proxy: accountProxy, via: devConnectionString(accountProxy.port, Number(port), Number(blob)) };
    }),
  );
  const storage = {
    AzureWebJobsStorage: viaProxy,
    ...(more.length ? { STORAGE_ACCOUNTS: [viaProxy, ...more.map((m) => m.via)].join(',') } : {}),
  };
  const tables = new TableStore(storage);
  const dataset = benchDataset();
  await importDataset(dataset, tables);
  await importCatalogues(officialCataloguesDir(root), tables, CATALOGUES);
  // Every table the gateway uses exists, as in an account in service: the app creates a table on its first call to it
  // (shared/store/create-on-miss.ts), once in the account's life, which a fresh Azurite would otherwise charge to the
  // first request of the cold-start row (the jobs table: a 404, a createTable and the call again).
  await Promise.all(
    tables.accounts.map((_, n) => {
      const service = tables.service(n);
      return Promise.all(GATEWAY_TABLES.map((t) => service.createTable(t)));
    }),
  );
  const siex = await startSiexSimulator({ log: () => undefined });
  // This process's first fetch loads Node's HTTP client (undici), which no warm request pays: done before the runner
  // starts, so the runner's first request is sent the moment it is ready and its figure is the gateway's cold start,
  // not the bench's own.
  await (await fetch(siex.url)).arrayBuffer();
  const mail = await startMailStub();
  const runnerEnv = {
    ...process.env,
    ...storage,
    AUTH_MODE: 'local',
    RATE_LIMIT_PER_MINUTE: '100000000',
    SIEX_BASE_URL: siex.url,
    SIEX_USERNAME: SIMULATOR_DEFAULT_CREDENTIALS.username,
    SIEX_PASSWORD: SIMULATOR_DEFAULT_CREDENTIALS.password,
    EMAIL_CONNECTION_STRING: mail.connectionString,
    EMAIL_ENDPOINT: '',
  };
  const runner = await startRunnerProcess({ projectRoot: root, quiet: true, env: runnerEnv });
  return {
    tables,
    directStorage: devConnectionString(tablePort, queuePort, blobPort),
    dataset,
    proxy: summed([proxy, ...more.map((m) => m.proxy)]),
    siex,
    runnerUrl: runner.url,
    runnerEnv,
    headers: {
      'Ocp-Apim-Sid-Key': BENCH_CLIENT.sid,
      'Ocp-Apim-Subscription-Key': BENCH_CLIENT.api,
      'Content-Type': 'application/json',
    },
    stop: async () => {
      await runner.stop();
      await siex.stop();
      await mail.stop();
      await proxy.stop();
      await azurite.stop();
      for (const m of more) {
        await m.proxy.stop();
        await m.account.stop();
      }
    },
  };
}

/** The round trips of every account's proxy, counted as one. */
function summed(proxies: StorageProxy[]): RoundTrips {
  return {
    count: () => proxies.reduce((n, p) => n + p.count(), 0),
    reset: () => proxies.forEach((p) => p.reset()),
  };
}

/** A request to the gateway that must answer `expect`; its JSON body, if any. */
export type GatewayCall = (method: string, path: string, body: unknown, expect: number) => Promise<unknown>;

export function gatewayCall(stack: BenchStack): GatewayCall {
  return async (method, path, body, expect) => {
    const res = await fetch(`${stack.runnerUrl}${path}`, {
      method,
      headers: stack.headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== expect) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return text ? (JSON.parse(text) as unknown) : undefined;
  };
}

/** Gateway latency, and the storage round trips the gateway made per measured request (warm-ups not counted). */
export type GatewayMeasure = (
  n: number,
  call: (i: number) => Promise<unknown>,
) => Promise<{ latency: Latency; roundTrips: number }>;

export function gatewayMeasure(proxy: RoundTrips): GatewayMeasure {
  return async (n, call) => {
    let counted = 0;
    const latency = await measure(
      async (i) => {
        if (i === 0) {
          proxy.reset();
          counted = 0;
        }
        await call(i);
        if (i >= 0) counted++;
      },
      n,
      Math.ceil(n / 10),
    );
    return { latency, roundTrips: proxy.count() / counted };
  };
}
