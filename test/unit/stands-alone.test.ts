import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { findProjectRoot } from '../../local/stack';

/**
 * A clone of the repository is the whole product: no code, test, script or document may reach a file beside it (the
 * team kit the project was started from lives there on some machines, and users never have it). Relative paths are
 * resolved from the file that writes them, so a path from functions/ into shared/ (inside) passes and one climbing
 * three folders up from test/unit (outside) fails; the kit's documents are also caught by name.
 */
const root = findProjectRoot(__dirname);
const self = path.relative(root, __filename);

const RELATIVE_PATH = /(?<![\w.])(?:\.\.\/)+[\w.-]+(?:\/[\w.-]+)*/g;
const SEGMENTED_PATH = /'\.\.'\s*,\s*'shared'/g;
// shared/siex/ is also a folder of ours (the CUE mapping): only the kit's data files under that name count.
const KIT_NAMES =
  /\bDESIGN(?:\.md| section)|\bshared\/(?:spec|hooks)\/|\bshared\/siex\/(?:catalogues|cue-schema|README)/g;

function trackedTextFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' });
  return out
    .split('\0')
    .filter((f) => f && f !== self && !f.startsWith('data/') && f !== 'package-lock.json')
    .filter((f) => /\.(ts|js|mjs|cjs|json|md|sh|ya?ml|bicep|xml|txt)$|^\.ci\/|^\.funcignore$|^\.gitignore$/.test(f));
}

function outsideReferences(file: string, text: string): string[] {
  const found: string[] = [];
  // Code that runs compiled resolves its paths from dist/<folder> (`__dirname`), everything else (tests run through
  // ts-jest) from its own folder: inside from either is inside.
  const compiled = /^(functions|shared|local|bench)\/.*\.[jt]s$/.test(file);
  const dirs = [
    path.dirname(path.join(root, file)),
    ...(compiled ? [path.dirname(path.join(root, 'dist', file))] : []),
  ];
  const outside = (ref: string) => dirs.every((d) => path.relative(root, path.resolve(d, ref)).startsWith('..'));
  for (const m of text.matchAll(RELATIVE_PATH)) if (outside(m[0])) found.push(m[0]);
  for (const m of text.matchAll(SEGMENTED_PATH)) found.push(m[0]);
  for (const m of text.matchAll(KIT_NAMES)) found.push(m[0]);
  return found;
}

describe('the repository stands on its own', () => {
  it('has tracked files to check (git sees the checkout)', () => {
    expect(trackedTextFiles().length).toBeGreaterThan(100);
  });

  it('no tracked file refers to anything outside the repository', () => {
    const offenders = trackedTextFiles().flatMap((file) =>
      outsideReferences(file, readFileSync(path.join(root, file), 'utf8')).map((ref) => `${file}: ${ref}`),
    );
    expect(offenders).toEqual([]);
  });

  it('catches each way of reaching outside', () => {
    // The offending texts are put together here, so that this file does not itself hold what the rule forbids.
    const [up, kit, doc] = ['../', 'shared', ['DES', 'IGN'].join('')];
    expect(
      outsideReferences('test/unit/x.ts', `path.resolve(__dirname, '${up.repeat(3)}${kit}/siex/catalogues')`),
    ).toHaveLength(2);
    expect(outsideReferences('local/x.ts', `resolve(root, '..', '${kit}', 'siex')`)).toHaveLength(1);
    expect(outsideReferences('README.md', `see ${up}${kit}/spec/gateway-interface.md`)).toHaveLength(2);
    expect(outsideReferences('README.md', `as ${doc} section 8 says`)).toHaveLength(1);
    expect(outsideReferences('functions/x.ts', "import { a } from '../shared/http/contracts';")).toEqual([]);
    expect(outsideReferences('test/unit/x.ts', "import { a } from '../../shared/http/contracts';")).toEqual([]);
  });
});
