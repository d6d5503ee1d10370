import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Just enough glob to expand a `package.json` `main` the way the worker's globby does for function apps
 * (`dist/functions/*.js`, `dist/**\/*.js`, `{a,b}`, `?`, `[...]`). Node 20 has no fs.glob and the runner must not
 * depend on a transitive package. Returns paths relative to `cwd`, with `/`, sorted so load order is stable.
 */
export function glob(pattern: string, cwd: string): string[] {
  const segments = pattern
    .replace(/\\/g, '/')
    .replace(/^\.\//, '')
    .split('/')
    .filter((s) => s !== '');
  const results = new Set<string>();
  walk(cwd, '', segments, results);
  return [...results].sort();
}

function isMagic(segment: string): boolean {
  return /[*?[{]/.test(segment);
}

/** Converts one path segment of a glob into an anchored regex. */
export function segmentRegex(segment: string): RegExp {
  let source = '';
  for (let i = 0; i < segment.length; i++) {
    const ch = segment[i];
    if (ch === '*') source += '[^/]*';
    else if (ch === '?') source += '[^/]';
    else if (ch === '[') {
      const close = segment.indexOf(']', i + 1);
      if (close < 0) source += '\\[';
      else {
        const body = segment
          .slice(i + 1, close)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\');
        source += `[${body}]`;
        i = close;
      }
    } else if (ch === '{') {
      const close = segment.indexOf('}', i + 1);
      if (close < 0) source += '\\{';
      else {
        const options = segment
          .slice(i + 1, close)
          .split(',')
          .map((o) => segmentRegex(o).source.slice(1, -1));
        source += `(?:${options.join('|')})`;
        i = close;
      }
    } else source += ch!.replace(/[.+^$()|\\/]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function walk(base: string, rel: string, segments: string[], out: Set<string>): void {
  const abs = rel ? join(base, rel) : base;
  if (segments.length === 0) {
    if (rel && isFile(abs)) out.add(rel);
    return;
  }
  const [head, ...rest] = segments;
  const child = (name: string) => (rel ? `${rel}/${name}` : name);
  if (head === '**') {
    walk(base, rel, rest, out); // zero directories
    for (const name of entries(abs)) {
      if (name.startsWith('.') || name === 'node_modules') continue;
      if (isDirectory(join(abs, name))) walk(base, child(name), segments, out);
    }
    return;
  }
  if (!isMagic(head!)) {
    walk(base, child(head!), rest, out);
    return;
  }
  const re = segmentRegex(head!);
  for (const name of entries(abs)) {
    if (name.startsWith('.') && !head!.startsWith('.')) continue;
    if (re.test(name)) walk(base, child(name), rest, out);
  }
}
