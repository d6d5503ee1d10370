import { ConfigError } from './config-error';
import { Settings, settingsSchema } from './settings';

export { ConfigError };

/** Parses settings from an environment; every invalid or missing one is named in the error. */
export function parseSettings(env: Record<string, string | undefined>): Settings {
  const result = settingsSchema.safeParse(env);
  if (result.success) return result.data;
  const lines = result.error.issues.map((i) => `  ${i.path.join('.') || '(settings)'}: ${i.message}`);
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}

let cached: Settings | undefined;

/** The process-wide settings, read once from `process.env` on first use. */
export function settings(): Settings {
  cached ??= parseSettings(process.env);
  return cached;
}
