import { ConfigError } from './config-error';

/**
 * The settings the HTTP functions cannot start without, checked with no schema library: the app's start-up
 * (functions/index.ts) runs this before registering anything, so a cold start pays for no schema, and the settings
 * schema (settings.ts) says the same with these same words. The other settings are parsed once, on first use.
 */
export const AUTH_MODES = ['local', 'apim'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

export const AUTH_MODE_NOT_SET =
  "AUTH_MODE is not set: 'local' (the app checks both keys and the rate limit itself: the local stack and tests) " +
  "or 'apim' (behind API Management, which checks them; Azure). There is no default.";

export const APIM_PRINCIPAL_NEEDED =
  "AUTH_MODE is 'apim', so APIM_PRINCIPAL_ID is needed too (the object id of API Management's identity)";

const isAuthMode = (v: string): v is AuthMode => (AUTH_MODES as readonly string[]).includes(v);

/**
 * Throws a ConfigError naming AUTH_MODE when it is missing or unknown, or APIM_PRINCIPAL_ID when `apim` mode lacks
 * it: with either wrong, every request would be refused (or, worse, trusted), so the app does not start.
 */
export function checkAuthSettings(env: Record<string, string | undefined>): AuthMode {
  const mode = env.AUTH_MODE?.trim();
  if (!mode) throw new ConfigError(AUTH_MODE_NOT_SET);
  const problems: string[] = [];
  if (!isAuthMode(mode)) problems.push(`AUTH_MODE: expected 'local' or 'apim', got "${mode}"`);
  if (mode === 'apim' && !env.APIM_PRINCIPAL_ID?.trim()) problems.push(`APIM_PRINCIPAL_ID: ${APIM_PRINCIPAL_NEEDED}`);
  if (problems.length > 0 || !isAuthMode(mode)) {
    throw new ConfigError(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
  return mode;
}
