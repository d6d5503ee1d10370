/**
 * Command-line flags of the local commands (the runner, the SIEX simulator, the mail stub, `npm start`): each one
 * lists its flags with a handler, and gets `--flag value`, `--flag=value` and switches read the same way.
 */

/** A flag's value, read only by the handlers of flags that take one (a switch never asks, so it takes none). */
export interface FlagValue {
  text(): string;
  /** An integer from min to max; `problem` words the error when the value is not one (default: the range). */
  int(min: number, max: number, problem?: (raw: string) => string): number;
}

export interface FlagRules {
  /** How an unknown flag is called in the error: "option" (the runner, `npm start`) or "flag" (the services). */
  unknownAs: 'option' | 'flag';
  /** An empty value (`--data=`) counts as a missing one. */
  emptyIsMissing?: boolean;
}

export function readFlags(
  argv: string[],
  handlers: Record<string, (value: FlagValue) => void>,
  rules: FlagRules,
): void {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag = arg, inline] = arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    // Own properties only: "constructor" on the command line is an unknown flag, not Object's.
    const handler = Object.hasOwn(handlers, flag) ? handlers[flag] : undefined;
    if (!handler) throw new Error(`unknown ${rules.unknownAs} ${arg}`);
    const text = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || (rules.emptyIsMissing && v === '')) throw new Error(`${flag} needs a value`);
      return v;
    };
    handler({
      text,
      int: (min, max, problem) => {
        const raw = text();
        const n = Number(raw);
        if (!Number.isInteger(n) || n < min || n > max)
          throw new Error(problem ? problem(raw) : `${flag} needs an integer from ${min} to ${max}`);
        return n;
      },
    });
  }
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
