import { ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * Child processes of the local stack (Azurite, the runner, the admin import) that never outlive us:
 * - each gets its own process group (`detached`), so a terminal Ctrl-C reaches only the parent, which then stops the
 *   children in order (runner before storage), and `stop()` can kill the whole group;
 * - with `ipc`, the child sees the channel close when the parent dies for any reason, even SIGKILL, and exits
 *   (the runner and the Azurite wrapper listen for `disconnect`);
 * - a synchronous `exit` hook kills every group still alive if the parent exits without stopping them.
 */
export interface ManagedChild {
  readonly name: string;
  readonly pid: number;
  readonly process: ChildProcess;
  /** Settles when the process has exited (never rejects). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly hasExited: boolean;
  /** The last lines it wrote (stdout and stderr), for error messages. */
  tail(lines?: number): string;
  /** Sends `signal` to the group, waits up to `timeoutMs`, then SIGKILLs the group. */
  stop(options?: { signal?: NodeJS.Signals; timeoutMs?: number }): Promise<void>;
}

interface SpawnOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Open an IPC channel (the child must be a Node process that handles `disconnect`). */
  ipc?: boolean;
  onLine?: (line: string, stream: 'stdout' | 'stderr') => void;
}

const TAIL_LINES = 200;
const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // Already gone.
    }
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of live) killGroup(child, 'SIGKILL');
  });
}

/** Runs `node <args>` as a managed child. */
export function spawnNode(name: string, args: string[], options: SpawnOptions): ManagedChild {
  installExitHook();
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: options.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  const lines: string[] = [];
  let exitedFlag = false;
  const record = (stream: 'stdout' | 'stderr') => (line: string) => {
    lines.push(line);
    if (lines.length > TAIL_LINES) lines.shift();
    options.onLine?.(line, stream);
  };
  // Output is read line by line; unread pipes would block the child once their buffers fill.
  if (child.stdout) createInterface({ input: child.stdout }).on('line', record('stdout'));
  if (child.stderr) createInterface({ input: child.stderr }).on('line', record('stderr'));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (exitedFlag) return;
      exitedFlag = true;
      live.delete(child);
      resolve({ code, signal });
    };
    // 'close' comes after the output pipes have been read to the end, so `tail()` then holds the last words; the
    // timer covers a grandchild keeping a pipe open after the process itself is gone.
    child.once('close', finish);
    child.once('exit', (code, signal) => {
      setTimeout(() => finish(code, signal), 2000).unref();
    });
    child.once('error', (err) => {
      record('stderr')(`failed to start: ${err.message}`);
      if (child.pid === undefined) finish(-1, null);
    });
  });

  return {
    name,
    pid: child.pid ?? -1,
    process: child,
    exited,
    get hasExited() {
      return exitedFlag;
    },
    tail: (n = 40) => lines.slice(-n).join('\n'),
    stop: async ({ signal = 'SIGTERM', timeoutMs = 10_000 } = {}) => {
      if (exitedFlag) return;
      killGroup(child, signal);
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
      });
      const result = await Promise.race([exited, timedOut]);
      clearTimeout(timer);
      if (result === 'timeout') {
        killGroup(child, 'SIGKILL');
        await exited;
      } else if (!exitedFlag) {
        await exited;
      }
      // The leader is gone; make sure nothing it started lingers in its group.
      killGroup(child, 'SIGKILL');
    },
  };
}
