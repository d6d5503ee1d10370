import { ServiceStarter } from '../stack';
import { startNodeService } from '../siex-simulator/service';
import { LOCAL_WEBHOOK_SIGNING_KEY } from './server';

/**
 * The webhook receiver as a child of the local stack (`startStack({ services: [webhookReceiverService()] })`): runs
 * `dist/local/webhook-receiver/main.js`, waits for its address, and hands the runner the signing key it checks with.
 */
export function webhookReceiverService(options: { port?: number; signingKey?: string } = {}): ServiceStarter {
  const signingKey = options.signingKey ?? LOCAL_WEBHOOK_SIGNING_KEY;
  return {
    name: 'webhook-receiver',
    async start(context) {
      const service = await startNodeService(context, {
        name: 'webhook-receiver',
        script: 'dist/local/webhook-receiver/main.js',
        args: ['--port', String(options.port ?? 0), '--signing-key', signingKey],
        ready: /^Webhook receiver listening on (http:\/\/\S+)$/,
      });
      return {
        name: service.name,
        url: service.url,
        stop: () => service.stop(),
        env: { WEBHOOK_SIGNING_KEY: signingKey },
      };
    },
  };
}
