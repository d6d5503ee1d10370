/**
 * Evaluates the small part of Bicep's expression language that loops over a parameter are written in: literals,
 * strings with interpolation, `== != && || ! + - ?:`, member and index access, arrays and objects, for-expressions
 * (`[for x in xs: ...]`, `[for (x, i) in xs: ...]`), lambdas, and the functions range, concat, join, map, length,
 * empty, resourceId and environment. Not a compiler (see bicep.ts): what it cannot evaluate it refuses, by throwing
 * NotEvaluable, so a check built on it fails loudly rather than passing on a guess.
 *
 * Names resolve in order to the enclosing loops' and lambdas' variables, the bindings the caller gives (a parameter's
 * value, a module's outputs), then the file's variables, each evaluated when first named.
 */
import type { Node } from 'web-tree-sitter';
import { BicepFile, stringValue } from './bicep';

export type Value = string | number | boolean | null | Value[] | { [key: string]: Value } | Lambda;

interface Lambda {
  lambda: (args: Value[]) => Value;
}

export class NotEvaluable extends Error {
  constructor(node: Node, why: string) {
    super(`${why}: ${node.text.slice(0, 80).replace(/\s+/g, ' ')}`);
  }
}

/** The public cloud's storage suffix: what `environment().suffixes.storage` is where the gateway runs. */
const ENVIRONMENT: Value = { suffixes: { storage: 'core.windows.net' } };

export class Evaluator {
  private readonly vars = new Map<string, Value>();

  constructor(
    private readonly file: BicepFile,
    private readonly bindings: Record<string, Value>,
  ) {}

  /** The value of an expression of the file, with the loop and lambda variables in `scope`. */
  evaluate(node: Node | undefined | null, scope: Record<string, Value> = {}): Value {
    if (!node) throw new Error('nothing to evaluate');
    const kids = node.namedChildren.filter((n) => n.type !== 'comment');
    const eval1 = (n: Node | null | undefined) => this.evaluate(n, scope);
    switch (node.type) {
      case 'number':
        return Number(node.text);
      case 'boolean':
        return node.text === 'true';
      case 'null':
        return null;
      case 'string':
        return this.string(node, scope);
      case 'identifier':
        return this.name(node, scope);
      case 'parenthesized_expression':
        return eval1(kids[0]);
      case 'array':
        return kids.map(eval1);
      case 'object':
        return Object.fromEntries(
          kids
            .filter((p) => p.type === 'object_property')
            .map((p) => {
              const [key, value] = p.namedChildren.filter((n) => n.type !== 'comment');
              return [key.type === 'string' ? (stringValue(key) ?? key.text) : key.text, eval1(value)];
            }),
        );
      case 'unary_expression': {
        const value = eval1(kids[0]);
        if (node.text.startsWith('!')) return !truthy(node, value);
        if (node.text.startsWith('-')) return -number(node, value);
        throw new NotEvaluable(node, 'unknown operator');
      }
      case 'binary_expression':
        return this.binary(node, scope);
      case 'ternary_expression':
        return truthy(node, eval1(node.childForFieldName('condition')))
          ? eval1(node.childForFieldName('consequence'))
          : eval1(node.childForFieldName('alternative'));
      case 'member_expression': {
        const object = eval1(node.childForFieldName('object'));
        const property = node.childForFieldName('property')?.text ?? '';
        if (!isRecord(object) || !(property in object)) throw new NotEvaluable(node, `no property ${property}`);
        return object[property];
      }
      case 'subscript_expression': {
        const object = eval1(node.childForFieldName('object'));
        const index = eval1(node.childForFieldName('index'));
        if (Array.isArray(object) && typeof index === 'number' && index >= 0 && index < object.length)
          return object[index];
        if (isRecord(object) && typeof index === 'string' && index in object) return object[index];
        throw new NotEvaluable(node, 'index out of range');
      }
      case 'for_statement':
        return this.forExpression(node, scope);
      case 'lambda_expression': {
        const params = kids.slice(0, -1).map((p) => p.text);
        const body = kids[kids.length - 1];
        return {
          lambda: (args: Value[]) =>
            this.evaluate(body, { ...scope, ...Object.fromEntries(params.map((p, i) => [p, args[i]])) }),
        };
      }
      case 'call_expression':
        return this.call(node, scope);
      default:
        throw new NotEvaluable(node, `cannot evaluate a ${node.type}`);
    }
  }

  /** The items a for-expression or a looped declaration (`[for ...: body]`) yields, each with its loop variables. */
  iterations(forNode: Node, scope: Record<string, Value> = {}): { scope: Record<string, Value>; body: Node }[] {
    if (forNode.type !== 'for_statement') throw new NotEvaluable(forNode, 'not a for-expression');
    const kids = forNode.namedChildren.filter((n) => n.type !== 'comment');
    const [variables, iterable] = kids;
    const body = forNode.childForFieldName('body') ?? kids[kids.length - 1];
    const items = this.evaluate(iterable, scope);
    if (!Array.isArray(items)) throw new NotEvaluable(iterable, 'a loop over something not an array');
    const [itemName, indexName] =
      variables.type === 'for_loop_parameters'
        ? [
            variables.namedChildren.find((n) => n.type === 'loop_variable')?.text,
            variables.namedChildren.find((n) => n.type === 'loop_enumerator')?.text,
          ]
        : [variables.text, undefined];
    return items.map((item, i) => ({
      scope: {
        ...scope,
        ...(itemName ? { [itemName]: item } : {}),
        ...(indexName ? { [indexName]: i } : {}),
      },
      body,
    }));
  }

  private forExpression(node: Node, scope: Record<string, Value>): Value {
    return this.iterations(node, scope).map((it) => this.evaluate(it.body, it.scope));
  }

  private string(node: Node, scope: Record<string, Value>): string {
    const plain = stringValue(node);
    if (plain !== undefined) return plain;
    return node.namedChildren
      .map((part) => {
        if (part.type === 'string_content') return part.text;
        if (part.type === 'interpolation') {
          const value = this.evaluate(part.namedChildren[0], scope);
          if (typeof value === 'object' && value !== null) throw new NotEvaluable(part, 'an object in a string');
          return String(value);
        }
        throw new NotEvaluable(part, `cannot read a ${part.type} in a string`);
      })
      .join('');
  }

  private name(node: Node, scope: Record<string, Value>): Value {
    const name = node.text;
    if (name in scope) return scope[name];
    if (name in this.bindings) return this.bindings[name];
    const cached = this.vars.get(name);
    if (cached !== undefined) return cached;
    const declared = this.file.vars.get(name);
    if (!declared) throw new NotEvaluable(node, 'not bound');
    const value = this.evaluate(declared);
    this.vars.set(name, value);
    return value;
  }

  private binary(node: Node, scope: Record<string, Value>): Value {
    const left = this.evaluate(node.childForFieldName('left'), scope);
    const operator = node.children.find((c) => c && !c.isNamed)?.text;
    // && and || as Bicep has them: the right side only when needed.
    if (operator === '&&')
      return truthy(node, left) && truthy(node, this.evaluate(node.childForFieldName('right'), scope));
    if (operator === '||')
      return truthy(node, left) || truthy(node, this.evaluate(node.childForFieldName('right'), scope));
    const right = this.evaluate(node.childForFieldName('right'), scope);
    switch (operator) {
      case '==':
        return JSON.stringify(left) === JSON.stringify(right);
      case '!=':
        return JSON.stringify(left) !== JSON.stringify(right);
      case '+':
        return number(node, left) + number(node, right);
      case '-':
        return number(node, left) - number(node, right);
      default:
        throw new NotEvaluable(node, `unknown operator ${operator}`);
    }
  }

  private call(node: Node, scope: Record<string, Value>): Value {
    const name = node.childForFieldName('function')?.text;
    const args = (node.childForFieldName('arguments')?.namedChildren ?? [])
      .filter((a) => a.type !== 'comment')
      .map((a) => this.evaluate(a, scope));
    const arrays = () => args.map((a) => array(node, a));
    switch (name) {
      case 'range': {
        const [start, count] = args.map((a) => number(node, a));
        return Array.from({ length: count }, (_, i) => start + i);
      }
      case 'concat':
        return args.every(Array.isArray) ? arrays().flat() : args.map(text).join('');
      case 'join':
        return array(node, args[0]).map(text).join(text(args[1]));
      case 'map': {
        const fn = args[1];
        if (!isLambda(fn)) throw new NotEvaluable(node, 'map without a lambda');
        return array(node, args[0]).map((item, i) => fn.lambda([item, i]));
      }
      case 'length':
        return Array.isArray(args[0]) || typeof args[0] === 'string' ? args[0].length : NaN;
      case 'empty':
        return Array.isArray(args[0]) || typeof args[0] === 'string' ? args[0].length === 0 : args[0] === null;
      // A resource's id, as far as a check compares them: its type and name.
      case 'resourceId':
        return args.map(text).join('/');
      case 'environment':
        return ENVIRONMENT;
      default:
        throw new NotEvaluable(node, `unknown function ${name}`);
    }
  }
}

/** A value as text: strings as they are, anything else as JSON (a check's message, a comparison). */
export function text(v: Value): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function isRecord(v: Value): v is { [key: string]: Value } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isLambda(v: Value): v is Lambda {
  return isRecord(v) && typeof v.lambda === 'function';
}

function truthy(node: Node, v: Value): boolean {
  if (typeof v !== 'boolean') throw new NotEvaluable(node, 'a condition that is not a bool');
  return v;
}

function number(node: Node, v: Value): number {
  if (typeof v !== 'number') throw new NotEvaluable(node, 'arithmetic on something not a number');
  return v;
}

function array(node: Node, v: Value): Value[] {
  if (!Array.isArray(v)) throw new NotEvaluable(node, 'not an array');
  return v;
}
