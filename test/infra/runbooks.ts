/**
 * The operators' documents (issue 27, item 8): docs/operations.md has every runbook the issue lists, each naming the
 * `npm run admin -- <command>` an operator types (the key runbooks: `new-key` and `import`) and the test that runs that
 * same command (an existing test file that mentions it); the README has the monthly cost per environment with the date of its figures and their sources, FEGA's
 * addresses, and how to obtain the SIEX certificate and credentials.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const RUNBOOKS = [
  'Onboarding a client',
  'Rotating keys',
  'The campaign rollover',
  'Refreshing the register and the catalogues',
  'Releasing outcome-unknown jobs',
  'Restore',
] as const;

/** Commands a runbook cannot do without: the key runbooks are the key generator and the import of its hashes. */
const REQUIRED_COMMANDS: Partial<Record<(typeof RUNBOOKS)[number], string[]>> = {
  'Onboarding a client': ['new-key', 'import'],
  'Rotating keys': ['new-key', 'import'],
};

/** The text of the section headed `title` (at any level), up to the next heading of its level or higher. */
function section(markdown: string, title: string): string | undefined {
  const heading = new RegExp(`^(#{2,4}) ${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\(.*\\))?$`, 'm').exec(
    markdown,
  );
  if (!heading) return undefined;
  const rest = markdown.slice(heading.index + heading[0].length);
  const end = rest.search(new RegExp(`^#{1,${heading[1].length}} `, 'm'));
  return heading[0] + (end < 0 ? rest : rest.slice(0, end));
}

/** Findings for docs/operations.md (`operations`) and the README (`readme`); `repoRoot` is where test paths resolve. */
export function checkRunbooks(operations: string, readme: string, repoRoot: string): string[] {
  const out: string[] = [];
  for (const title of RUNBOOKS) {
    const text = section(operations, title);
    if (!text) {
      out.push(`docs/operations.md: runbook "${title}" is missing`);
      continue;
    }
    // A runbook that points elsewhere ("Backup and restore") is checked through the section it names.
    const pointed = /^"([^"]+)" above/m.exec(text.split('\n').slice(1).join('\n').trim())?.[1];
    const body = pointed
      ? (section(operations, pointed) ?? `\n## ${pointed}` + operations.split(`\n## ${pointed}`)[1])
      : text;
    const commands = [...body.matchAll(/npm run admin -- ([a-z-]+)/g)].map((m) => m[1]);
    const tests = [...text.matchAll(/`(test\/[\w/.-]+\.test\.ts)`/g)].map((m) => m[1]);
    if (commands.length === 0) out.push(`docs/operations.md: runbook "${title}" names no npm run admin command`);
    for (const command of REQUIRED_COMMANDS[title] ?? [])
      if (!commands.includes(command))
        out.push(`docs/operations.md: runbook "${title}" does not name npm run admin -- ${command}`);
    if (tests.length === 0) out.push(`docs/operations.md: runbook "${title}" names no test that runs its commands`);
    const sources = tests.map((test) => {
      const file = path.join(repoRoot, test);
      if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8');
      out.push(`docs/operations.md: runbook "${title}" names ${test}, which does not exist`);
      return '';
    });
    // Run by a named test: its file names the command as the CLI takes it (`['import', file]`, `'import-products …'`).
    const runs = (source: string, command: string) => new RegExp(`['"\`]${command}['" \`]`).test(source);
    for (const command of commands)
      if (tests.length > 0 && !sources.some((source) => runs(source, command)))
        out.push(`docs/operations.md: runbook "${title}": none of ${tests.join(', ')} runs ${command}`);
  }
  if (!/Monthly cost per environment\*\*, at list prices[^.]*? \d{1,2} \w+ 20\d\d/.test(readme))
    out.push('README.md: the monthly cost per environment, at list prices with the date of the figures, is missing');
  if (!/^Sources: \[1\]/m.test(readme)) out.push('README.md: the sources of the cost figures are missing');
  if (!/\*\*FEGA's addresses\.\*\*/.test(readme)) out.push("README.md: FEGA's addresses are missing");
  if (!/\*\*The SIEX certificate and credentials\.\*\*/.test(readme))
    out.push('README.md: how to obtain the SIEX certificate and credentials is missing');
  return out;
}
