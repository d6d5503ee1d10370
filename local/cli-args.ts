/**
 * What the local commands add to node:util `parseArgs` (which reads their flags): integer values checked against a
 * range, non-empty strings, and how a command run as its own process answers bad flags and `--help`.
 */

/** An integer flag's value, from min to max; undefined when the flag was not given. */
export function intFlag(
  flag: string,
  raw: string | undefined,
  range: { min: number; max: number; problem?: (raw: string) => string },
): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(n) || n < range.min || n > range.max)
    throw new Error(range.problem ? range.problem(raw) : `${flag} needs an integer from ${range.min} to ${range.max}`);
  return n;
}

/** A string flag that must not be empty when given (`--data=` is a mistake, not the current directory). */
export function nonEmptyFlag(flag: string, raw: string | undefined): string | undefined {
  if (raw === '') throw new Error(`${flag} needs a value`);
  return raw;
}

/**
 * The flags of a command run as its own process. Bad flags print the reason and the usage on stderr and exit 2;
 * --help prints the usage on stdout and gives undefined, for the command to end there.
 */
export function flagsOrExit<T extends { help: boolean }>(parse: () => T, usage: string): T | undefined {
  let args: T;
  try {
    args = parse();
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${usage}\n`);
    process.exit(2);
  }
  if (!args.help) return args;
  process.stdout.write(`${usage}\n`);
  return undefined;
}
