/**
 * The backend is reachable only through API Management because App Service authentication admits only API
 * Management's identity (infra/modules/functionApp.bicep, checked by checks/backend-auth.ts). The Functions host's own
 * keys play no part: API Management holds none, so an HTTP function at authLevel 'function' (or 'admin') would refuse
 * every call that got through. Every registration therefore says 'anonymous', explicitly: the v4 programming model
 * defaults to it too, but the choice should be visible where the function is registered. This reads the TypeScript
 * sources (compiler API, no execution).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { Finding } from './checks/model';

function tsFilesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? tsFilesUnder(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

/** Every `app.http(name, options)` under the given directories must have an explicit authLevel 'anonymous'. */
export function checkHttpAuthLevels(root: string, dirs: string[] = ['functions', 'shared']): Finding[] {
  const out: Finding[] = [];
  let registrations = 0;
  for (const file of dirs.flatMap((d) => tsFilesUnder(path.join(root, d)))) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    const rel = path.relative(root, file).split(path.sep).join('/');
    const visit = (node: ts.Node): void => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        node.expression.name.text === 'http' &&
        ts.isIdentifier(node.expression.expression) &&
        node.expression.expression.text === 'app'
      ) {
        registrations++;
        const [nameArg, options] = node.arguments;
        const name = nameArg && ts.isStringLiteralLike(nameArg) ? nameArg.text : undefined;
        const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        const where = `app.http(${name ? `'${name}'` : (nameArg?.getText(source) ?? '')}) at line ${line}`;
        const prop =
          options && ts.isObjectLiteralExpression(options)
            ? options.properties.find(
                (p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText(source) === 'authLevel',
              )
            : undefined;
        const level = prop && ts.isStringLiteralLike(prop.initializer) ? prop.initializer.text : undefined;
        if (!options || !ts.isObjectLiteralExpression(options))
          out.push({
            check: 'auth-level',
            file: rel,
            message: `${where}: options must be an object literal, so authLevel can be read`,
          });
        else if (level !== 'anonymous')
          out.push({
            check: 'auth-level',
            file: rel,
            message: `${where}: authLevel must be 'anonymous' (is ${level ? `'${level}'` : prop ? 'computed' : 'missing'}): App Service authentication admits only API Management, which holds no function key`,
          });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  if (registrations === 0)
    out.push({ check: 'auth-level', file: dirs.join(', '), message: 'no app.http registration found' });
  return out;
}
