import path from 'node:path';
import { app } from '@azure/functions';
import { simulatorCredentials, simulatorHandlers } from './function-app';
import { startSiexSimulator } from './server';

/**
 * The SIEX simulator Function App's start-up (the `main` of dist/deploy-siex, built by
 * local/siex-simulator/build-function-package.ts): three HTTP functions over one simulator (function-app.ts). The
 * package's host.json sets no route prefix, so the app's paths are the simulator's: SIEX_BASE_URL is the app's address.
 */
const handlers = simulatorHandlers(() =>
  startSiexSimulator({
    port: 0,
    host: '127.0.0.1',
    // Copied beside this bundle by the package build.
    schemaPath: path.join(__dirname, 'cue-schema-3.11.4.json'),
    ...simulatorCredentials(process.env),
    log: (line) => console.log(line),
  }),
);

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;

app.http('siex', { route: '{*path}', methods: [...METHODS], authLevel: 'anonymous', handler: handlers.iuws });
app.http('siexControl', {
  route: '_control/{*rest}',
  methods: [...METHODS],
  authLevel: 'function',
  handler: handlers.operator,
});
app.http('siexInspect', {
  route: '_inspect/{*rest}',
  methods: [...METHODS],
  authLevel: 'function',
  handler: handlers.operator,
});
