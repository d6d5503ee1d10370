/**
 * Every relative link in the repository's Markdown files leads somewhere: the file or folder exists, and a `#anchor`
 * into a Markdown file names one of its headings (as GitHub makes their anchors). A reader who follows the README
 * from a fresh clone meets no dead link.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { globSync } from 'tinyglobby';

const root = path.resolve(__dirname, '..', '..');

/** GitHub's heading anchor: lower case, punctuation dropped (letters of any script kept), spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const [, text] of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = slug(text.replace(/`/g, ''));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    found.add(n === 0 ? base : `${base}-${n}`);
  }
  return found;
}

/** The text without its code: fenced blocks and inline code hold examples, not links. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** Each relative link of a Markdown file that leads nowhere, as `target: why`. */
function deadLinks(file: string, markdown: string): string[] {
  const dead: string[] = [];
  for (const [, target] of prose(markdown).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const [rawPath, anchor] = target.split('#', 2);
    const linked = rawPath ? path.resolve(path.dirname(file), decodeURIComponent(rawPath)) : file;
    if (!fs.existsSync(linked)) {
      dead.push(`${target}: no such file`);
      continue;
    }
    const headings = () => anchors(rawPath ? fs.readFileSync(linked, 'utf8') : markdown);
    if (anchor && linked.endsWith('.md') && !headings().has(anchor)) dead.push(`${target}: no heading #${anchor}`);
  }
  return dead;
}

describe('relative links in Markdown', () => {
  const files = globSync('**/*.md', {
    cwd: root,
    absolute: true,
    ignore: ['**/node_modules/**', '**/dist/**', '.local/**', 'coverage/**'],
  });

  it('finds the Markdown files', () => {
    expect(files.map((f) => path.relative(root, f))).toEqual(
      expect.arrayContaining(['README.md', 'docs/interface.md']),
    );
  });

  it.each(files.map((f) => [path.relative(root, f), f]))('%s: every relative link resolves', (_, file) => {
    expect(deadLinks(file, fs.readFileSync(file, 'utf8'))).toEqual([]);
  });

  it('reports a missing file and a missing heading, and skips code and other schemes', () => {
    const readme = path.join(root, 'README.md');
    const text = [
      '# Top',
      '[ok](docs/interface.md) [here](#top) [web](https://example.org/x.md) [mail](mailto:a@b.c)',
      '[gone](spec/backoffice-dataset.md) [bad anchor](docs/operations.md#no-such-heading)',
      '`[code](nowhere.md)`',
      '```',
      '[fenced](nowhere-either.md)',
      '```',
    ].join('\n');
    expect(deadLinks(readme, text)).toEqual([
      'spec/backoffice-dataset.md: no such file',
      'docs/operations.md#no-such-heading: no heading #no-such-heading',
    ]);
  });

  it("reads headings' anchors as GitHub makes them", () => {
    expect([...anchors('## Backup and restore\n## The flow, with the demo data\n## Backup and restore')]).toEqual([
      'backup-and-restore',
      'the-flow-with-the-demo-data',
      'backup-and-restore-1',
    ]);
  });
});
