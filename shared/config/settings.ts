import { z } from 'zod';

/**
 * Every setting the gateway reads, in one schema. The Bicep app settings, `local.settings.sample.json` and the
 * offline infra checks are all compared against these keys, so adding a setting anywhere else is a test failure.
 */
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const settingsSchema = z
  .object({
    /** Storage connection string (Azurite locally). In Azure, identity-based access uses the account name below. */
    AzureWebJobsStorage: z.string().min(1).optional(),
    /** Storage account name for identity-based access (managed identity); used when no connection string is set. */
    AzureWebJobsStorage__accountName: z.string().min(1).optional(),
    /** `local`: the app checks both keys and the rate limit itself; `apim`: API Management did (DESIGN section 5). */
    AUTH_MODE: z.enum(['local', 'apim']).default('apim'),
    /** Requests per minute per client enforced by the app in `local` mode (APIM enforces it in production). */
    RATE_LIMIT_PER_MINUTE: positiveInt(100),
    /** Largest accepted request body, in bytes. */
    MAX_BODY_BYTES: positiveInt(1024 * 1024),
    /** How many days back an application may be registered (the spec: 7, "may vary with configuration"). */
    MAX_BACKDATE_DAYS: z.coerce.number().int().min(0).max(365).default(7),
    /**
     * How long reference data (clients, catalog, farm indexes) is served from memory before it is checked again;
     * 0 checks on every request (tests, where data is loaded between requests).
     */
    REFERENCE_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  })
  .superRefine((s, ctx) => {
    if (!s.AzureWebJobsStorage && !s.AzureWebJobsStorage__accountName) {
      ctx.addIssue({
        code: 'custom',
        path: ['AzureWebJobsStorage'],
        message: 'set AzureWebJobsStorage (connection string) or AzureWebJobsStorage__accountName (managed identity)',
      });
    }
  });

export type Settings = z.infer<typeof settingsSchema>;

/** The names of every setting, for the infra checks and the sample settings file. */
export const settingNames = Object.keys(settingsSchema.shape) as (keyof Settings)[];
