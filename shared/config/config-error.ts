/** A setting is missing or invalid: the message names each one. */
export class ConfigError extends Error {}
