import { ServiceStarter } from '../stack';
import { startNodeService } from '../siex-simulator/service';

/**
 * The e-mail stub as a child of the local stack (`startStack({ services: [mailStubService()] })`): runs
 * `dist/local/mail-stub/main.js`, waits for its address and connection string, and hands the runner
 * EMAIL_CONNECTION_STRING (and an empty EMAIL_ENDPOINT, so the two never meet).
 */
export function mailStubService(options: { port?: number } = {}): ServiceStarter {
  return {
    name: 'mail-stub',
    async start(context) {
      const service = await startNodeService(context, {
        name: 'mail-stub',
        script: 'dist/local/mail-stub/main.js',
        args: ['--port', String(options.port ?? 0)],
        // The connection string comes on the line after the address, so wait for that one.
        ready: /^Connection string: endpoint=(http:\/\/[^/;]+)\/?;accesskey=/,
      });
      const connectionString = service.lines.map((l) => /^Connection string: (.+)$/.exec(l)?.[1]).find(Boolean)!;
      return {
        name: service.name,
        url: service.url,
        stop: () => service.stop(),
        env: { EMAIL_CONNECTION_STRING: connectionString, EMAIL_ENDPOINT: '' },
      };
    },
  };
}
