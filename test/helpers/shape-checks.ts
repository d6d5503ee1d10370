/**
 * The building blocks of the hand-written response-shape checks (spec-shapes.ts, phyto-shapes.ts): each checks one
 * value at a path and throws a ShapeError naming the first deviation.
 */
export type Json = unknown;

export class ShapeError extends Error {}

export function fail(path: string, message: string): never {
  throw new ShapeError(`${path}: ${message}`);
}

export function obj(v: Json, path: string, keys: readonly string[]): Record<string, Json> {
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    fail(path, `expected an object, got ${JSON.stringify(v)}`);
  const actual = Object.keys(v).sort();
  const expected = [...keys].sort();
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    fail(path, `expected exactly the keys [${expected.join(', ')}], got [${actual.join(', ')}]`);
  }
  return v as Record<string, Json>;
}

export function arr(v: Json, path: string, minLength = 0): Json[] {
  if (!Array.isArray(v)) fail(path, `expected an array, got ${JSON.stringify(v)}`);
  if (v.length < minLength) fail(path, `expected at least ${minLength} items`);
  return v;
}

export function str(v: Json, path: string, re?: RegExp): string {
  if (typeof v !== 'string') fail(path, `expected a string, got ${typeof v} ${JSON.stringify(v)}`);
  if (re && !re.test(v)) fail(path, `${JSON.stringify(v)} does not match ${re}`);
  return v;
}

export function int(v: Json, path: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v))
    fail(path, `expected an integer, got ${typeof v} ${JSON.stringify(v)}`);
  return v;
}

export function constant(v: Json, path: string, value: string): void {
  if (v !== value) fail(path, `expected the constant ${JSON.stringify(value)}, got ${JSON.stringify(v)}`);
}
