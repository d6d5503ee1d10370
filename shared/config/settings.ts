import { z } from 'zod';
import { APIM_PRINCIPAL_NEEDED, AUTH_MODES } from './auth-settings';
import { parseStorageAccounts } from './storage-accounts';

/**
 * Every setting the gateway reads, in one schema. The Bicep app settings, `local.settings.sample.json` and the
 * offline infra checks are all compared against these keys, so adding a setting anywhere else is a test failure.
 */
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
/** Azure sets every app setting in every environment, so an empty value stands for "not used here". */
const blankIsUnset = (v: unknown) => (v === '' ? undefined : v);
const optionalText = z.preprocess(blankIsUnset, z.string().min(1).optional());
const optionalHttpUrl = z.preprocess(blankIsUnset, z.url({ protocol: /^https?$/ }).optional());

export const settingsSchema = z
  .object({
    /** Storage connection string (Azurite locally). In Azure, identity-based access uses the account name below. */
    AzureWebJobsStorage: z.string().min(1).optional(),
    /** Storage account name for identity-based access (managed identity); used when no connection string is set. */
    AzureWebJobsStorage__accountName: z.string().min(1).optional(),
    /**
     * The data accounts farms are spread over (issue 37), comma-separated, in order: each a table endpoint
     * `https://<account>.table.core.windows.net` (managed identity, as AzureWebJobsStorage__accountName) or a connection
     * string (Azurite). The first must be the account AzureWebJobsStorage names; unset, that account alone
     * (storage-accounts.ts, docs/operations.md "Storage accounts").
     */
    STORAGE_ACCOUNTS: optionalText,
    /**
     * `local`: the app checks both keys and the rate limit itself; `apim`: API Management did, and the app trusts what
     * it says only on requests App Service authentication admitted as API Management (docs/architecture.md, "Identity
     * and access"). No default: either guess is wrong somewhere, so the app refuses to start without it
     * (auth-settings.ts). Optional here only because the admin CLI reads these settings too and has no use for it.
     */
    AUTH_MODE: z.enum(AUTH_MODES).optional(),
    /**
     * Object id of API Management's managed identity (`apim` mode): the principal App Service authentication names in
     * X-MS-CLIENT-PRINCIPAL-ID when it admitted API Management's token. Required in `apim` mode.
     */
    APIM_PRINCIPAL_ID: z.preprocess(blankIsUnset, z.guid().optional()),
    /** Requests per minute per client enforced by the app in `local` mode (APIM enforces it in production). */
    RATE_LIMIT_PER_MINUTE: positiveInt(100),
    /** Largest accepted request body, in bytes. */
    MAX_BODY_BYTES: positiveInt(1024 * 1024),
    /**
     * HTTP requests this instance works on at once; the next ones wait (ADMISSION_WAIT_MS at most) or are refused with
     * 503 OVERLOADED (shared/http/admission.ts). In Azure, the same figure as the platform's per-instance concurrency.
     */
    MAX_CONCURRENT_REQUESTS: positiveInt(16),
    /** How long a request may wait for one of those places before it is refused with 503 OVERLOADED. */
    ADMISSION_WAIT_MS: z.coerce.number().int().min(0).max(20_000).default(2000),
    /**
     * How many days back a treatment may be registered (the spec: 7, "may vary with configuration"): the treatments'
     * recording window. Every other kind's is the law's, and no setting.
     */
    MAX_BACKDATE_DAYS: z.coerce.number().int().min(0).max(365).default(7),
    /**
     * How long reference data (clients, catalog, farm indexes) is served from memory before it is checked again;
     * 0 checks on every request (tests, where data is loaded between requests).
     */
    REFERENCE_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
    /** Base URL of SIEX's IUWS service (the local simulator in development); unset, exports fail saying so. */
    SIEX_BASE_URL: optionalHttpUrl,
    /** User name the IUWS `comunicacion` call exchanges for a token (a Key Vault reference in Azure). */
    SIEX_USERNAME: optionalText,
    /** Password of SIEX_USERNAME (a Key Vault reference in Azure). */
    SIEX_PASSWORD: optionalText,
    /** TLS client certificate SIEX requires in production: base64 PFX (Key Vault certificate) or PEM cert + key. */
    SIEX_CLIENT_CERT: optionalText,
    /** How long one IUWS HTTP call may take before it is abandoned and retried. */
    SIEX_TIMEOUT_MS: positiveInt(10_000),
    /** Tries per IUWS call (the first included) for 5xx, 429, time-outs and network errors; the queue retries beyond. */
    SIEX_MAX_ATTEMPTS: positiveInt(4),
    /** Ceiling of the first retry's random delay (full jitter), doubled per retry up to 20 s. */
    SIEX_RETRY_BASE_MS: positiveInt(500),
    /** Communication Services connection string with an access key (the local e-mail stub's, or ACS without identity). */
    EMAIL_CONNECTION_STRING: optionalText,
    /** Communication Services endpoint reached with the managed identity (Azure; https, the token must not leak). */
    EMAIL_ENDPOINT: z.preprocess(blankIsUnset, z.url({ protocol: /^https$/ }).optional()),
    /** From address of the outcome e-mails (a sender of the Communication Services e-mail domain in Azure). */
    EMAIL_SENDER: z.email().default('DoNotReply@siex-gateway.local'),
    /**
     * The key clients' webhook signing secrets are derived from (shared/notify/webhook-secret.ts): a Key Vault secret
     * reference in Azure, as the SIEX credentials are. Unset, no webhook is sent (nothing unsigned ever is).
     */
    WEBHOOK_SIGNING_KEY: z.preprocess(
      // A Key Vault reference the platform could not resolve stays in the setting as its own text, which must never
      // become the key everyone could compute secrets from: it counts as unset.
      (v) => (typeof v === 'string' && v.startsWith('@Microsoft.KeyVault(') ? undefined : blankIsUnset(v)),
      z.string().min(32, 'at least 32 characters').optional(),
    ),
    /** Storage connection string of the table backups (Azurite locally; docs/operations.md, "Backup and restore"). */
    BACKUP_STORAGE: optionalText,
    /**
     * Blob endpoint of the table backups' account, reached with the managed identity (Azure: an account of its own,
     * immutable). The templates pass the account's own primary endpoint, so no cloud's domain is written in the code.
     */
    BACKUP_BLOB_ENDPOINT: z.preprocess(blankIsUnset, z.url({ protocol: /^https$/ }).optional()),
    /** Blob container of the table backups. */
    BACKUP_CONTAINER: z
      .string()
      .regex(/^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){2,62}$/, 'a blob container name')
      .default('table-backups'),
  })
  .superRefine((s, ctx) => {
    if (!s.AzureWebJobsStorage && !s.AzureWebJobsStorage__accountName) {
      ctx.addIssue({
        code: 'custom',
        path: ['AzureWebJobsStorage'],
        message: 'set AzureWebJobsStorage (connection string) or AzureWebJobsStorage__accountName (managed identity)',
      });
    }
    const accounts = s.AzureWebJobsStorage || s.AzureWebJobsStorage__accountName ? parseStorageAccounts(s) : null;
    if (accounts && 'problems' in accounts)
      for (const message of accounts.problems) ctx.addIssue({ code: 'custom', path: ['STORAGE_ACCOUNTS'], message });
    if (s.AUTH_MODE === 'apim' && !s.APIM_PRINCIPAL_ID) {
      ctx.addIssue({
        code: 'custom',
        path: ['APIM_PRINCIPAL_ID'],
        message: APIM_PRINCIPAL_NEEDED,
      });
    }
    if (s.SIEX_BASE_URL) {
      for (const key of ['SIEX_USERNAME', 'SIEX_PASSWORD'] as const)
        if (!s[key])
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: `SIEX_BASE_URL is set, so ${key} is needed too (the IUWS comunicacion credentials)`,
          });
    }
    if (s.EMAIL_CONNECTION_STRING && !/endpoint=.+;accesskey=.+/i.test(s.EMAIL_CONNECTION_STRING)) {
      ctx.addIssue({
        code: 'custom',
        path: ['EMAIL_CONNECTION_STRING'],
        message: 'expected "endpoint=<url>;accesskey=<base64 key>"',
      });
    }
    if (s.EMAIL_CONNECTION_STRING && s.EMAIL_ENDPOINT) {
      ctx.addIssue({
        code: 'custom',
        path: ['EMAIL_ENDPOINT'],
        message: 'set EMAIL_CONNECTION_STRING (access key) or EMAIL_ENDPOINT (managed identity), not both',
      });
    }
  });

export type Settings = z.infer<typeof settingsSchema>;

/** What a record kind may read of the settings to say its recording window (shared/records/record-kind.ts). */
export type RecordSettings = Pick<Settings, 'MAX_BACKDATE_DAYS'>;
