import { join, resolve } from 'node:path';
import { RegisteredFunction } from '../functions-core/core-api';
import { RpcBindingInfo } from '../functions-core/types';
import { apiDocsPages } from './api-docs';
import { HostConfig, readHostConfig } from './host-config';
import { GatewayHttpServer, HttpFunction } from './http-server';
import { Invoker } from './invoke';
import { LoadedApp, loadApp } from './load-app';
import { RunnerLogger } from './logger';
import { QueueOutputs, isQueueOutput } from './outputs';
import { QueueListener } from './queue-listener';
import { RouteDefinition, RouteTable } from './routes';
import { QueueConnections, resolveQueueName } from './storage';
import { TimerTrigger } from './timer-trigger';

interface RunnerOptions {
  root: string;
  main?: string;
  /** host.json to honour; default `<root>/host.json`. */
  hostJson?: string;
  port: number;
  hostname: string;
  /** How long a client may take to send a request's headers, and the whole request (http-server.ts has defaults). */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  env: NodeJS.ProcessEnv;
  logger: RunnerLogger;
}

export interface RunningRunner {
  url: string;
  config: HostConfig;
  /** Stops accepting work, waits up to `drainMs` for running invocations, runs `appTerminate` hooks. */
  stop(drainMs: number): Promise<void>;
}

const lower = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '').toLowerCase();

function triggerOf(fn: RegisteredFunction): [string, RpcBindingInfo] {
  const entry = Object.entries(fn.metadata.bindings).find(([, b]) => /trigger$/i.test(String(b.type ?? '')));
  if (!entry) throw new Error(`function "${fn.metadata.name}" has no trigger binding`);
  return entry;
}

/**
 * The host's switch for one function: app setting `AzureWebJobs.<name>.Disabled` set to true makes it ignore the
 * function's trigger (an HTTP function answers 404, a queue is not read, a timer does not fire).
 */
export const disabledSetting = (name: string): string => `AzureWebJobs.${name}.Disabled`;

/** Bindings the runner cannot honour are reported at start-up rather than silently ignored. */
function warnUnsupported(fn: RegisteredFunction, logger: RunnerLogger): void {
  for (const [name, b] of Object.entries(fn.metadata.bindings)) {
    const type = lower(b.type);
    if (type === 'httptrigger' || type === 'queuetrigger' || type === 'timertrigger') continue;
    if (b.direction === 'out' && (type === 'http' || type === 'queue')) continue;
    logger.warn(
      `function "${fn.metadata.name}": binding "${name}" (${b.type}, ${b.direction}) is not supported by the local runner`,
    );
  }
}

function sleep(ms: number): Promise<'timeout'> {
  return new Promise((r) => setTimeout(() => r('timeout'), ms).unref());
}

/** Each enabled function bound to its trigger: an HTTP route, a queue listener or a timer. */
interface Triggers {
  routes: RouteDefinition<HttpFunction>[];
  listeners: QueueListener[];
  timers: TimerTrigger[];
  /** The functions their `AzureWebJobs.<name>.Disabled` setting switches off. */
  disabled: string[];
}

interface BindingContext {
  env: NodeJS.ProcessEnv;
  config: HostConfig;
  connections: QueueConnections;
  invoker: Invoker;
  outputs: QueueOutputs;
  logger: RunnerLogger;
}

function bindTriggers(functions: RegisteredFunction[], c: BindingContext): Triggers {
  const bound: Triggers = { routes: [], listeners: [], timers: [], disabled: [] };
  for (const fn of functions) {
    warnUnsupported(fn, c.logger);
    if (lower(c.env[disabledSetting(fn.metadata.name)]) === 'true') {
      bound.disabled.push(fn.metadata.name);
      continue;
    }
    const [triggerName, trigger] = triggerOf(fn);
    const type = lower(trigger.type);
    if (type === 'httptrigger') {
      const template = typeof trigger.route === 'string' && trigger.route.trim() ? trigger.route : fn.metadata.name;
      const methods = Array.isArray(trigger.methods) ? trigger.methods.map((m) => String(m).toUpperCase()) : undefined;
      bound.routes.push({ template, methods, target: { fn, triggerName } });
    } else if (type === 'queuetrigger') {
      const queueName = resolveQueueName(trigger.queueName, c.env);
      bound.listeners.push(
        new QueueListener({
          fn,
          bindingName: triggerName,
          dataType: trigger.dataType,
          queueName,
          queue: c.connections.queue(trigger.connection, queueName),
          poison: c.connections.queue(trigger.connection, `${queueName}-poison`),
          config: c.config.queues,
          invoker: c.invoker,
          outputs: c.outputs,
          logger: c.logger,
        }),
      );
    } else if (type === 'timertrigger') {
      bound.timers.push(
        new TimerTrigger({
          fn,
          bindingName: triggerName,
          schedule: typeof trigger.schedule === 'string' ? trigger.schedule : '',
          runOnStartup: trigger.runOnStartup === true,
          invoker: c.invoker,
          logger: c.logger,
        }),
      );
    }
    if (Object.values(fn.metadata.bindings).some(isQueueOutput)) c.outputs.validate(fn);
  }
  return bound;
}

/** Every queue listener started, or none left running: the first queue out of reach stops the start. */
async function startListeners(listeners: QueueListener[]): Promise<void> {
  for (const listener of listeners) {
    try {
      await listener.start();
    } catch (err) {
      await Promise.allSettled(listeners.map((l) => l.stop()));
      throw new Error(
        `cannot reach queue "${listener.queueName}": ${err instanceof Error ? err.message : String(err)}`,
        { cause: err },
      );
    }
  }
}

/** What the runner serves, as the Functions host lists it at start-up. */
function announce(logger: RunnerLogger, url: string, app: LoadedApp, table: RouteTable<HttpFunction>, t: Triggers) {
  logger.info(`Functions (${app.functions.length}) from ${app.files.length} file(s):`);
  for (const r of table.describe()) logger.info(`  ${r.target.fn.metadata.name}: [${r.methods}] ${url}${r.path}`);
  for (const l of t.listeners) logger.info(`  ${l.functionName}: [queue] ${l.queueName}`);
  for (const timer of t.timers) logger.info(`  ${timer.functionName}: [timer] ${timer.schedule}`);
  for (const name of t.disabled) logger.info(`  ${name}: disabled (${disabledSetting(name)})`);
}

/**
 * The runner's stop, once however often it is asked: no new work, up to `drainMs` for the invocations running,
 * then the app's `appTerminate` hooks, each given `drainMs` too.
 */
function stopOnce(
  server: GatewayHttpServer,
  t: Triggers,
  invoker: Invoker,
  app: LoadedApp,
  logger: RunnerLogger,
): (drainMs: number) => Promise<void> {
  let stopping: Promise<void> | undefined;
  return (drainMs) => {
    stopping ??= (async () => {
      const accepting = server.stopAccepting();
      const drained = Promise.all([
        accepting,
        ...t.listeners.map((l) => l.stop()),
        ...t.timers.map((timer) => timer.stop()),
        invoker.idle(),
      ]);
      if ((await Promise.race([drained, sleep(drainMs)])) === 'timeout') {
        logger.warn(`${invoker.inFlight} invocation(s) still running after ${drainMs} ms; stopping anyway`);
      }
      server.destroyConnections();
      const terminate = { hookData: app.host.appStartHookData, appHookData: app.host.appHookData };
      for (const hook of [...app.host.hooks.appTerminate]) {
        try {
          await Promise.race([hook(terminate), sleep(drainMs)]);
        } catch (err) {
          logger.error('an appTerminate hook threw', err);
        }
      }
    })();
    return stopping;
  };
}

/** Loads the app and serves its HTTP, queue and timer triggers. Rejects (serving nothing) if anything fails to start. */
export async function startRunner(options: RunnerOptions): Promise<RunningRunner> {
  const { logger, env } = options;
  const root = resolve(options.root);
  const config = readHostConfig(options.hostJson ? resolve(options.hostJson) : join(root, 'host.json'));
  const app = await loadApp({ root, main: options.main, logger });
  const invoker = new Invoker(app.host, logger);
  const connections = new QueueConnections(env);
  // A message written to a queue wakes its listener at once; the listeners are made after the outputs, which they use.
  const listeners: QueueListener[] = [];
  const outputs = new QueueOutputs(connections, config.queues.messageEncoding, env, (queueName) => {
    for (const l of listeners) if (l.queueName === queueName) l.wake();
  });
  const triggers = bindTriggers(app.functions, { env, config, connections, invoker, outputs, logger });
  listeners.push(...triggers.listeners);
  const table = new RouteTable(triggers.routes, config.routePrefix);
  await startListeners(listeners);
  const server = new GatewayHttpServer({
    routes: table,
    invoker,
    outputs,
    logger,
    pages: apiDocsPages(),
    headersTimeoutMs: options.headersTimeoutMs,
    requestTimeoutMs: options.requestTimeoutMs,
  });
  let address;
  try {
    address = await server.listen(options.port, options.hostname);
  } catch (err) {
    await Promise.allSettled(listeners.map((l) => l.stop()));
    throw err;
  }
  const url = `http://${options.hostname.includes(':') ? `[${options.hostname}]` : options.hostname}:${address.port}`;
  announce(logger, url, app, table, triggers);
  for (const t of triggers.timers) t.start();
  return { url, config, stop: stopOnce(server, triggers, invoker, app, logger) };
}
