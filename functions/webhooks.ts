import { serve } from '../shared/app/serve';
import { UseCases } from '../shared/app/use-cases';
import {
  listWebhookDeliveriesContract,
  readWebhookContract,
  rotateWebhookSecretContract,
  setWebhookContract,
  testWebhookContract,
} from '../shared/http/contracts/webhooks';
import { HandleOf } from '../shared/http/endpoint';
import { deliveryView, settingsView } from '../shared/http/webhook-answers';

/** The caller's webhook (shared/notify/webhook-settings.ts): one handler per operation, each shaping its answer. */

const read: HandleOf<typeof readWebhookContract, UseCases> = async ({ client }, useCases) => ({
  status: 200,
  json: settingsView(await useCases.webhook.read(client)),
});

const set: HandleOf<typeof setWebhookContract, UseCases> = async ({ client, body }, useCases) => ({
  status: 200,
  json: settingsView(await useCases.webhook.set(client, body)),
});

const test: HandleOf<typeof testWebhookContract, UseCases> = async ({ client }, useCases) => ({
  status: 200,
  json: await useCases.webhook.ping(client),
});

const rotate: HandleOf<typeof rotateWebhookSecretContract, UseCases> = async ({ client, body }, useCases) => ({
  status: 200,
  json: settingsView(await useCases.webhook.rotate(client, body.overlapHours)),
});

const deliveries: HandleOf<typeof listWebhookDeliveriesContract, UseCases> = async ({ client, query }, useCases) => ({
  status: 200,
  json: (await useCases.webhook.deliveries(client, query.limit)).map(deliveryView),
});

export const readWebhook = serve(readWebhookContract, read);
export const setWebhook = serve(setWebhookContract, set);
export const testWebhook = serve(testWebhookContract, test);
export const rotateWebhookSecret = serve(rotateWebhookSecretContract, rotate);
export const listWebhookDeliveries = serve(listWebhookDeliveriesContract, deliveries);
