/**
 * A small static model of Bicep files, built from the tree-sitter-bicep grammar (wasm, through web-tree-sitter):
 * what the offline infra checks need to know about parameters, outputs, variables, resources and modules, plus
 * helpers to read literal values. The Bicep compiler cannot be installed here; this is not a compiler, and the
 * checks built on it are deliberately literal (see checks.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Language, Node, Parser } from 'web-tree-sitter';

let parserPromise: Promise<Parser> | undefined;

/** One parser for the process; the wasm runtime and grammar load once. */
function bicepParser(): Promise<Parser> {
  parserPromise ??= (async () => {
    const runtimeWasm = require.resolve('web-tree-sitter/web-tree-sitter.wasm');
    await Parser.init({ locateFile: () => runtimeWasm });
    // Bytes rather than a path: loading from a path uses a dynamic import(), which jest's VM does not allow.
    const language = await Language.load(fs.readFileSync(require.resolve('tree-sitter-bicep/tree-sitter-bicep.wasm')));
    const parser = new Parser();
    parser.setLanguage(language);
    return parser;
  })();
  return parserPromise;
}

interface Decorated {
  /** Decorator names in source order, e.g. `secure`, `allowed`, `description`. */
  decorators: string[];
  decoratorNodes: Node[];
}

interface BicepParam extends Decorated {
  name: string;
  type: string;
  hasDefault: boolean;
  defaultValue?: Node;
  /** Literal values of `@allowed([...])`, when present. */
  allowed?: unknown[];
  node: Node;
}

interface BicepOutput extends Decorated {
  name: string;
  type: string;
  value: Node;
  node: Node;
}

interface BicepResource {
  symbol: string;
  /** `Provider/type@api-version` as written. */
  typeAndVersion: string;
  existing: boolean;
  /** The resource body (inside `if (...)` or `[for ...]` when conditional or looped). */
  body: Node | undefined;
  node: Node;
}

interface BicepModule {
  symbol: string;
  /** The module path as written (relative to the declaring file). */
  source: string;
  body: Node | undefined;
  node: Node;
}

export interface BicepFile {
  file: string;
  source: string;
  /** Aliases of `extension <alias>` statements (declared in bicepconfig.json), e.g. `microsoftGraphV1`. */
  extensions: string[];
  root: Node;
  /** `ERROR` and `MISSING` nodes, as `line:column text`. */
  syntaxErrors: string[];
  targetScope?: string;
  params: Map<string, BicepParam>;
  outputs: Map<string, BicepOutput>;
  vars: Map<string, Node>;
  resources: BicepResource[];
  modules: BicepModule[];
}

/** Every `.bicep` file under a directory, sorted, as absolute paths. */
export function bicepFilesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith('.bicep')) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * `extension <alias>` (Bicep 0.30 and later; the Microsoft Graph extension is declared this way) postdates
 * tree-sitter-bicep 1.1.0, which reports the statement as a parse error. Such lines are recorded, then blanked to
 * spaces of the same length, so every other position in the file stays where the parser reports it.
 */
const EXTENSION_STATEMENT = /^extension[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]*$/gm;

export async function parseBicepFile(file: string): Promise<BicepFile> {
  const source = fs.readFileSync(file, 'utf8');
  const extensions = [...source.matchAll(EXTENSION_STATEMENT)].map((m) => m[1]);
  const parser = await bicepParser();
  const tree = parser.parse(source.replace(EXTENSION_STATEMENT, (line) => ' '.repeat(line.length)));
  if (!tree) throw new Error(`tree-sitter returned no tree for ${file}`);
  const root = tree.rootNode;
  const model: BicepFile = {
    file,
    source,
    extensions,
    root,
    syntaxErrors: syntaxErrors(root),
    params: new Map(),
    outputs: new Map(),
    vars: new Map(),
    resources: [],
    modules: [],
  };
  let pending: Node[] = [];
  for (const statement of root.namedChildren) {
    if (statement.type === 'comment') continue;
    if (statement.type === 'decorators') {
      pending = statement.namedChildren.filter((n) => n.type === 'decorator');
      continue;
    }
    const decorators = { decoratorNodes: pending, decorators: pending.map(decoratorName) };
    pending = [];
    const kids = statement.namedChildren.filter((n) => n.type !== 'comment');
    switch (statement.type) {
      case 'target_scope_assignment':
        model.targetScope = stringValue(kids[0]);
        break;
      case 'parameter_declaration': {
        const [id, type, value] = kids;
        const allowedNode = decorators.decoratorNodes.find((d) => decoratorName(d) === 'allowed');
        const allowedArg = allowedNode ? decoratorArgs(allowedNode)[0] : undefined;
        const allowed = allowedArg ? literalValue(allowedArg) : undefined;
        model.params.set(id.text, {
          ...decorators,
          name: id.text,
          type: type.text,
          hasDefault: value !== undefined,
          defaultValue: value,
          allowed: Array.isArray(allowed) ? allowed : undefined,
          node: statement,
        });
        break;
      }
      case 'output_declaration': {
        const [id, type, value] = kids;
        model.outputs.set(id.text, { ...decorators, name: id.text, type: type.text, value, node: statement });
        break;
      }
      case 'variable_declaration':
        model.vars.set(kids[0].text, kids[1]);
        break;
      case 'resource_declaration':
        model.resources.push(resourceOf(statement));
        break;
      case 'module_declaration': {
        const [id, src, body] = kids;
        model.modules.push({
          symbol: id.text,
          source: stringValue(src) ?? src.text,
          body: declarationBody(body),
          node: statement,
        });
        break;
      }
      default:
        break;
    }
  }
  // Nested child resources (`resource x '...' = {...}` inside a resource body) are resources too.
  for (const nested of root.descendantsOfType('resource_declaration')) {
    if (nested && nested.parent?.type !== 'infrastructure') model.resources.push(resourceOf(nested));
  }
  return model;
}

function resourceOf(statement: Node): BicepResource {
  const kids = statement.namedChildren.filter((n) => n.type !== 'comment');
  const [id, type, body] = kids;
  return {
    symbol: id.text,
    typeAndVersion: stringValue(type) ?? type.text,
    existing: statement.children.some((c) => c.type === 'existing'),
    body: declarationBody(body),
    node: statement,
  };
}

/** The object of a declaration, looking through `if (...) {...}` and `[for x in xs: {...}]`. */
function declarationBody(node: Node | undefined): Node | undefined {
  if (!node) return undefined;
  if (node.type === 'object') return node;
  if (node.type === 'if_statement' || node.type === 'for_statement') {
    const last = node.namedChildren[node.namedChildren.length - 1];
    return declarationBody(last);
  }
  return undefined;
}

function syntaxErrors(root: Node): string[] {
  const out: string[] = [];
  const walk = (n: Node) => {
    if (n.type === 'ERROR' || n.isMissing) {
      const what = n.isMissing ? `missing ${n.type}` : `unexpected "${n.text.slice(0, 40).replace(/\s+/g, ' ')}"`;
      out.push(`${n.startPosition.row + 1}:${n.startPosition.column + 1} ${what}`);
    }
    for (const c of n.children) if (c) walk(c);
  };
  walk(root);
  return out;
}

function decoratorName(decorator: Node): string {
  const call = decorator.namedChildren.find((n) => n.type === 'call_expression');
  const fn = call?.childForFieldName('function');
  // `@sys.description(...)` is a member expression; its last part is the name.
  return (fn?.type === 'member_expression' ? fn.namedChildren[fn.namedChildren.length - 1]?.text : fn?.text) ?? '';
}

function decoratorArgs(decorator: Node): Node[] {
  const call = decorator.namedChildren.find((n) => n.type === 'call_expression');
  return call?.childForFieldName('arguments')?.namedChildren.filter((n) => n.type !== 'comment') ?? [];
}

/** The text of a string without interpolation, escapes decoded; undefined for anything else. */
export function stringValue(node: Node | undefined | null): string | undefined {
  if (!node || node.type !== 'string') return undefined;
  let out = '';
  for (const part of node.namedChildren) {
    if (part.type === 'string_content') out += part.text;
    else if (part.type === 'escape_sequence') out += decodeEscape(part.text);
    else return undefined;
  }
  if (node.text.startsWith("'''")) out = out.replace(/^\r?\n/, '');
  return out;
}

function decodeEscape(text: string): string {
  const simple: Record<string, string> = {
    "\\'": "'",
    '\\\\': '\\',
    '\\n': '\n',
    '\\r': '\r',
    '\\t': '\t',
    '\\$': '$',
  };
  if (text in simple) return simple[text];
  const unicode = /^\\u\{([0-9a-fA-F]+)\}$/.exec(text);
  return unicode ? String.fromCodePoint(parseInt(unicode[1], 16)) : text;
}

/** A property key as written: identifier-like keys by their text, quoted keys by their value. */
function propertyKey(property: Node): string | undefined {
  const key = property.namedChildren[0];
  if (!key) return undefined;
  return key.type === 'string' ? stringValue(key) : key.text;
}

/** The value node of an object property. */
function propertyValue(property: Node): Node | undefined {
  const kids = property.namedChildren.filter((n) => n.type !== 'comment');
  return kids.length >= 2 ? kids[kids.length - 1] : undefined;
}

/** The properties of an object literal, in order. */
export function objectProperties(object: Node | undefined): { key: string; value: Node | undefined; node: Node }[] {
  if (!object || object.type !== 'object') return [];
  return object.namedChildren
    .filter((n) => n.type === 'object_property' && n.namedChildren[0]?.type !== 'resource_declaration')
    .map((n) => ({ key: propertyKey(n) ?? '', value: propertyValue(n), node: n }));
}

/** Follows a path of property names through nested object literals: `get(body, 'properties', 'path')`. */
export function getProperty(object: Node | undefined, ...names: string[]): Node | undefined {
  let current = object;
  for (const name of names) {
    current = objectProperties(current).find((p) => p.key === name)?.value;
    if (!current) return undefined;
  }
  return current;
}

export const NOT_LITERAL = Symbol('not a literal');

/**
 * The JavaScript value of a literal expression (strings, numbers, booleans, null, arrays, objects), or NOT_LITERAL.
 * With `vars` (a file's variables), an identifier naming a variable stands for that variable's literal value.
 */
export function literalValue(node: Node | undefined, vars?: Map<string, Node>, depth = 0): unknown {
  if (!node || depth > 20) return NOT_LITERAL;
  const nested = (n: Node | undefined) => literalValue(n, vars, depth + 1);
  switch (node.type) {
    case 'identifier': {
      const target = vars?.get(node.text);
      return target ? nested(target) : NOT_LITERAL;
    }
    case 'string': {
      const s = stringValue(node);
      return s === undefined ? NOT_LITERAL : s;
    }
    case 'number':
      return Number(node.text);
    case 'boolean':
      return node.text === 'true';
    case 'null':
      return null;
    case 'unary_expression': {
      const inner = nested(node.namedChildren[0]);
      return node.text.trim().startsWith('-') && typeof inner === 'number' ? -inner : NOT_LITERAL;
    }
    case 'array': {
      const items = node.namedChildren.filter((n) => n.type !== 'comment' && n.type !== 'decorators').map(nested);
      return items.includes(NOT_LITERAL) ? NOT_LITERAL : items;
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const p of objectProperties(node)) {
        const v = nested(p.value);
        if (v === NOT_LITERAL) return NOT_LITERAL;
        out[p.key] = v;
      }
      return out;
    }
    default:
      return NOT_LITERAL;
  }
}

/** Every call to one of the named functions anywhere under a node (e.g. loadTextContent). */
export function callsTo(node: Node, names: string[]): { name: string; args: Node[]; node: Node }[] {
  return node
    .descendantsOfType('call_expression')
    .filter((n): n is Node => !!n)
    .map((n) => ({ fn: n.childForFieldName('function'), node: n }))
    .filter(({ fn }) => fn !== null && names.includes(fn.text))
    .map(({ fn, node: call }) => ({
      name: fn!.text,
      args: call.childForFieldName('arguments')?.namedChildren.filter((a) => a.type !== 'comment') ?? [],
      node: call,
    }));
}

/** `line:column` of a node, 1-based, for messages. */
export function where(node: Node): string {
  return `${node.startPosition.row + 1}:${node.startPosition.column + 1}`;
}
