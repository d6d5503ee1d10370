import module from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Node 22.1+ keeps V8's compiled code of the modules loaded after this call on disk and reuses it at the next start,
 * so a restarted worker skips compiling the app's bundle and the Azure SDKs. On Flex Consumption the app's folder is
 * read-only; the cache lives in the instance's writable temp directory (os.tmpdir(), /tmp), which lasts as long as
 * the instance: worker restarts on it benefit, a fresh instance starts with an empty cache. Node 20 has no such
 * cache, and loads as before. NODE_COMPILE_CACHE, when set, chooses the directory instead.
 */
export function enableCompileCache(): void {
  const enable = (module as { enableCompileCache?: (dir?: string) => unknown }).enableCompileCache;
  enable?.(process.env.NODE_COMPILE_CACHE ?? path.join(tmpdir(), 'siex-gateway-compile-cache'));
}
