/**
 * The templates as Bicep would compile them: syntax, loaded files, modules and symbols. The Bicep compiler cannot run
 * here, so these are the errors it would have reported first.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Node } from 'web-tree-sitter';
import { callsTo, getProperty, objectProperties, stringValue, where } from '../bicep';
import { Finding, Infra, moduleTarget, rel } from './model';

/** Bicep's compile-time limits on loaded files, in characters. */
const LOAD_LIMITS: Record<string, number> = {
  loadTextContent: 131072,
  loadJsonContent: 1048576,
  loadYamlContent: 1048576,
  loadFileAsBase64: 96 * 1024,
};

/** Every .bicep file parses with tree-sitter-bicep without ERROR or MISSING nodes; main.bicep exists. */
export function checkBicepSyntax(infra: Infra): Finding[] {
  const out: Finding[] = [];
  if (!infra.main) out.push({ check: 'syntax', file: 'infra/main.bicep', message: 'missing' });
  for (const f of infra.files.values())
    for (const e of f.syntaxErrors)
      out.push({ check: 'syntax', file: rel(infra, f.file), message: `parse error at ${e}` });
  return out;
}

/** load*Content/loadFileAsBase64 arguments are literal paths to existing files within Bicep's size limits. */
export function checkLoadedFiles(infra: Infra): Finding[] {
  const out: Finding[] = [];
  for (const f of infra.files.values()) {
    for (const call of callsTo(f.root, Object.keys(LOAD_LIMITS))) {
      const file = rel(infra, f.file);
      const arg = stringValue(call.args[0]);
      if (arg === undefined) {
        out.push({ check: 'loaded-files', file, message: `${call.name} at ${where(call.node)} needs a literal path` });
        continue;
      }
      const target = path.resolve(path.dirname(f.file), arg);
      if (!fs.existsSync(target) || !fs.statSync(target).isFile()) {
        out.push({
          check: 'loaded-files',
          file,
          message: `${call.name}('${arg}') at ${where(call.node)}: no such file`,
        });
        continue;
      }
      const size = fs.readFileSync(target, 'utf8').length;
      if (size > LOAD_LIMITS[call.name])
        out.push({
          check: 'loaded-files',
          file,
          message: `${call.name}('${arg}'): ${size} characters, over Bicep's limit of ${LOAD_LIMITS[call.name]}`,
        });
    }
  }
  return out;
}

/** Module paths are local files that exist; params passed match the module's; referenced outputs exist. */
export function checkModules(infra: Infra): Finding[] {
  const out: Finding[] = [];
  for (const f of infra.files.values()) {
    const file = rel(infra, f.file);
    for (const m of f.modules) {
      if (/^(br|ts)[:/]/.test(m.source)) {
        out.push({
          check: 'modules',
          file,
          message: `module ${m.symbol}: registry module '${m.source}' cannot be restored offline; use infra/modules/`,
        });
        continue;
      }
      const target = moduleTarget(infra, f, m.source);
      if (!target) {
        out.push({ check: 'modules', file, message: `module ${m.symbol}: '${m.source}' does not exist` });
        continue;
      }
      const params = getProperty(m.body, 'params');
      const passed = objectProperties(params).map((p) => p.key);
      if (params && params.type !== 'object')
        out.push({ check: 'modules', file, message: `module ${m.symbol}: params must be an object literal` });
      for (const name of passed)
        if (!target.params.has(name))
          out.push({
            check: 'modules',
            file,
            message: `module ${m.symbol} passes '${name}', which ${m.source} does not declare`,
          });
      for (const p of target.params.values())
        if (!p.hasDefault && !passed.includes(p.name))
          out.push({
            check: 'modules',
            file,
            message: `module ${m.symbol} does not pass required parameter '${p.name}' of ${m.source}`,
          });
      if (!getProperty(m.body, 'name') && f === infra.main)
        out.push({ check: 'modules', file, message: `module ${m.symbol}: give the deployment a name` });
    }
    // <module>.outputs.<name> must be an output of that module.
    const bySymbol = new Map(f.modules.map((m) => [m.symbol, moduleTarget(infra, f, m.source)]));
    for (const expr of f.root.descendantsOfType('member_expression')) {
      if (!expr) continue;
      const [object, prop] = expr.namedChildren;
      if (object?.type !== 'member_expression') continue;
      const [symbol, outputsWord] = object.namedChildren;
      if (symbol?.type !== 'identifier' || outputsWord?.text !== 'outputs' || !bySymbol.has(symbol.text)) continue;
      const target = bySymbol.get(symbol.text);
      if (target && !target.outputs.has(prop.text))
        out.push({
          check: 'modules',
          file,
          message: `${symbol.text}.outputs.${prop.text} at ${where(expr)}: no such output`,
        });
    }
  }
  return out;
}

// Symbols: every identifier used is declared (a typo would only show at deployment).

const BUILTIN_NAMESPACES = new Set(['az', 'sys']);

export function checkSymbols(infra: Infra): Finding[] {
  const out: Finding[] = [];
  for (const f of infra.files.values()) {
    const declared = new Set<string>([
      ...f.params.keys(),
      ...f.vars.keys(),
      ...f.outputs.keys(),
      ...f.resources.map((r) => r.symbol),
      ...f.modules.map((m) => m.symbol),
      ...BUILTIN_NAMESPACES,
    ]);
    // Loop and lambda variables: scoped in Bicep, accepted file-wide here (the check is for typos, not scoping).
    for (const loop of f.root.descendantsOfType(['for_statement', 'loop_variable', 'loop_enumerator'])) {
      if (!loop) continue;
      if (loop.type === 'for_statement') {
        const first = loop.namedChildren[0];
        if (first?.type === 'identifier') declared.add(first.text);
      } else declared.add(loop.text);
    }
    for (const lambda of f.root.descendantsOfType('lambda_expression')) {
      const params = lambda?.namedChildren[0];
      for (const id of params ? [params, ...params.descendantsOfType('identifier')] : [])
        if (id?.type === 'identifier') declared.add(id.text);
    }
    for (const id of f.root.descendantsOfType('identifier')) {
      if (!id || declared.has(id.text) || !isReference(id)) continue;
      out.push({ check: 'symbols', file: rel(infra, f.file), message: `'${id.text}' at ${where(id)} is not declared` });
    }
  }
  return out;
}

/** Whether an identifier node is a use of a symbol (not a declaration name, property key, function or type name). */
function isReference(id: Node): boolean {
  const parent = id.parent;
  if (!parent) return false;
  const declarations = [
    'parameter_declaration',
    'variable_declaration',
    'output_declaration',
    'resource_declaration',
    'module_declaration',
    'type_declaration',
    'user_defined_function',
    'metadata_declaration',
    'test_block',
    'assert_statement',
    'parameter',
  ];
  if (declarations.includes(parent.type) && parent.namedChildren[0]?.equals(id)) return false;
  if (parent.type === 'object_property' && parent.namedChildren[0]?.equals(id)) return false;
  if (parent.type === 'call_expression' && parent.childForFieldName('function')?.equals(id)) return false;
  if (parent.type === 'type' || parent.type.endsWith('_type')) return false;
  if (parent.type === 'import_functionality' || parent.type === 'import_statement') return false;
  return true;
}
