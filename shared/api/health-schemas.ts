import { z } from 'zod';

/** GET /v1/health's answer: what the gateway needs to serve its clients, each part checked now. */
export const healthSchema = z
  .object({
    status: z
      .enum(['ok', 'failing'])
      .describe('`ok` when every check below passed (HTTP 200); `failing` when one did not (HTTP 503)'),
    checks: z.object({
      tables: z
        .object({ ok: z.boolean(), ms: z.number().int().min(0) })
        .describe("a read of the gateway's tables, and how long it took"),
      queues: z
        .object({
          ok: z.boolean(),
          waiting: z.record(z.string(), z.number().int().min(0)).describe('messages waiting, by queue (approximate)'),
        })
        .describe('the export queue and its poison queue'),
      keyVaultReferences: z
        .object({
          ok: z.boolean(),
          unresolved: z.array(z.string()).describe('settings still holding their `@Microsoft.KeyVault(...)` text'),
        })
        .describe('the settings Azure resolves from Key Vault (the SIEX credentials and certificate, the webhook key)'),
      siex: z
        .object({
          outcome: z.enum(['reachable', 'unreachable', 'not-configured']),
          ms: z.number().int().min(0),
        })
        .describe("a call to SIEX's address: reported, not part of `status` (SIEX down is not the gateway down)"),
    }),
  })
  .describe("the gateway's parts, checked on each call");
export type Health = z.infer<typeof healthSchema>;
