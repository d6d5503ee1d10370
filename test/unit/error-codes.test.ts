import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ERROR_CODES, statusOfCode } from '../../shared/http/error-codes';

const ROOT = path.resolve(__dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Every literal code passed to violation('X', …) or named by a refinement as params: { code: 'X' }. */
function codesUsed(): Map<string, string[]> {
  const used = new Map<string, string[]>();
  for (const file of [...sources(path.join(ROOT, 'shared')), ...sources(path.join(ROOT, 'functions'))]) {
    const text = readFileSync(file, 'utf8');
    for (const re of [/\bviolation\(\s*['"`]([^'"`]+)['"`]/g, /params:\s*\{[^}]*\bcode:\s*['"`]([^'"`]+)['"`]/g]) {
      for (const m of text.matchAll(re)) used.set(m[1], [...(used.get(m[1]) ?? []), path.relative(ROOT, file)]);
    }
  }
  return used;
}

describe('error codes', () => {
  const used = codesUsed();

  it('finds the codes of the request pipeline (so the scan itself works)', () => {
    for (const code of ['MISSING_CREDENTIALS', 'INVALID_CREDENTIALS', 'EXPIRED_CREDENTIALS', 'RATE_LIMITED', 'PAYLOAD_TOO_LARGE', 'MALFORMED_JSON', 'UNKNOWN_FIELD', 'FARM_NOT_FOUND', 'ENCLOSURE_NOT_FOUND']) {
      expect(used.has(code)).toBe(true);
    }
  });

  it('every code used in shared/ and functions/ is in ERROR_CODES (and so in the OpenAPI document)', () => {
    const missing = [...used].filter(([code]) => !(code in ERROR_CODES)).map(([code, files]) => `${code} (${files.join(', ')})`);
    expect(missing).toEqual([]);
  });

  it('codes are UPPER_SNAKE, with an HTTP error status and a meaning', () => {
    for (const [code, [status, meaning]] of Object.entries(ERROR_CODES)) {
      expect(code).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(600);
      expect(meaning.length).toBeGreaterThan(5);
      expect(statusOfCode(code)).toBe(status);
    }
  });

  it('maps the spec\'s cases to the spec\'s statuses', () => {
    expect(ERROR_CODES.MISSING_CREDENTIALS[0]).toBe(401);
    expect(ERROR_CODES.INVALID_CREDENTIALS[0]).toBe(401);
    expect(ERROR_CODES.EXPIRED_CREDENTIALS[0]).toBe(401);
    expect(ERROR_CODES.REQUIRED[0]).toBe(400);
    expect(ERROR_CODES.PAYLOAD_TOO_LARGE[0]).toBe(413);
    expect(ERROR_CODES.RATE_LIMITED[0]).toBe(429);
    expect(ERROR_CODES.FARM_NOT_FOUND[0]).toBe(404);
    expect(ERROR_CODES.AGRIFARM_NOT_FOUND).toEqual([404, 'agrifarmId not found or not accessible']);
    expect(ERROR_CODES.PAGINATION_PAIR).toEqual([400, 'page and page_size must be provided together']);
  });
});
