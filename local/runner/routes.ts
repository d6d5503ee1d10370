/**
 * HTTP route templates as the Functions host reads them (ASP.NET route syntax) and matching as the host does it:
 * literal segments case-insensitive, a trailing slash ignored, `{name}`, `{name?}`, `{name=default}`,
 * `{name:constraint}`, `{*rest}` catch-all, and segments mixing text and parameters (`{id}.json`). When several
 * templates match, the more specific wins (literal > mixed > constrained > plain parameter > catch-all, segment by
 * segment), then registration order. Pure: no I/O, unit-tested on its own.
 */

type Constraint = (value: string) => boolean;

interface Param {
  name: string;
  optional: boolean;
  defaultValue?: string;
  constraints: Constraint[];
}

type Part = { literal: string } | { param: Param };

type Segment =
  | { kind: 'literal'; text: string }
  | { kind: 'param'; param: Param }
  | { kind: 'mixed'; regex: RegExp; params: Param[] }
  | { kind: 'catchAll'; param: Param };

export interface RouteDefinition<T> {
  /** The template without the prefix, as registered (`route`, or the function name when it has none). */
  template: string;
  /** Upper-case methods; undefined or empty means any method. */
  methods?: readonly string[];
  target: T;
}

export interface RouteMatch<T> {
  target: T;
  params: Record<string, string>;
}

interface CompiledRoute<T> {
  definition: RouteDefinition<T>;
  fullTemplate: string;
  segments: Segment[];
  /** One digit per segment, lower is more specific; compared lexicographically. */
  precedence: number[];
  methods?: Set<string>;
  order: number;
}

const INT32 = /^-?\d+$/;

function numberArgs(args: string, name: string, count: number): number[] {
  const values = args.split(',').map((a) => Number(a.trim()));
  if (values.length !== count || values.some((v) => !Number.isFinite(v))) {
    throw new Error(`route constraint ${name}(${args}) needs ${count} number(s)`);
  }
  return values;
}

/** The host's built-in inline constraints; an unknown one fails start-up, as it does in the host. */
function constraintFor(spec: string): Constraint {
  const m = /^([A-Za-z]+)(?:\((.*)\))?$/s.exec(spec);
  if (!m) throw new Error(`invalid route constraint "${spec}"`);
  const name = m[1]!.toLowerCase();
  const args = m[2] ?? '';
  switch (name) {
    case 'int':
      return (v) => INT32.test(v) && Number(v) >= -2147483648 && Number(v) <= 2147483647;
    case 'long':
      return (v) => INT32.test(v) && BigInt(v) >= -(2n ** 63n) && BigInt(v) < 2n ** 63n;
    case 'bool':
      return (v) => /^(true|false)$/i.test(v);
    case 'guid':
      return (v) => /^\{?[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\}?$/i.test(v);
    case 'alpha':
      return (v) => /^[a-z]+$/i.test(v);
    case 'decimal':
    case 'double':
    case 'float':
      return (v) => v.trim() !== '' && Number.isFinite(Number(v));
    case 'datetime':
      return (v) => !Number.isNaN(Date.parse(v));
    case 'minlength': {
      const [n] = numberArgs(args, name, 1);
      return (v) => v.length >= n!;
    }
    case 'maxlength': {
      const [n] = numberArgs(args, name, 1);
      return (v) => v.length <= n!;
    }
    case 'length': {
      const parts = args.includes(',') ? numberArgs(args, name, 2) : numberArgs(args, name, 1);
      const [min, max = min] = parts;
      return (v) => v.length >= min! && v.length <= max!;
    }
    case 'min': {
      const [n] = numberArgs(args, name, 1);
      return (v) => INT32.test(v) && Number(v) >= n!;
    }
    case 'max': {
      const [n] = numberArgs(args, name, 1);
      return (v) => INT32.test(v) && Number(v) <= n!;
    }
    case 'range': {
      const [min, max] = numberArgs(args, name, 2);
      return (v) => INT32.test(v) && Number(v) >= min! && Number(v) <= max!;
    }
    case 'regex': {
      const re = new RegExp(args, 'i');
      return (v) => re.test(v);
    }
    default:
      throw new Error(`unknown route constraint "${spec}"`);
  }
}

/** Splits `name:int:min(1)` on colons that are not inside parentheses. */
function splitConstraints(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of body) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if (ch === ':' && depth === 0) {
      out.push(current);
      current = '';
    } else current += ch;
  }
  out.push(current);
  return out;
}

function parseParam(token: string, template: string): Param & { catchAll: boolean } {
  let body = token;
  let catchAll = false;
  if (body.startsWith('**')) [catchAll, body] = [true, body.slice(2)];
  else if (body.startsWith('*')) [catchAll, body] = [true, body.slice(1)];
  let defaultValue: string | undefined;
  const eq = body.indexOf('=');
  if (eq >= 0) [body, defaultValue] = [body.slice(0, eq), body.slice(eq + 1)];
  let optional = false;
  if (body.endsWith('?')) [body, optional] = [body.slice(0, -1), true];
  const [name, ...specs] = splitConstraints(body);
  if (!name || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    throw new Error(`route "${template}": invalid parameter name "${name}"`);
  return { name, optional, defaultValue, constraints: specs.map(constraintFor), catchAll };
}

function parseParts(segment: string, template: string): Part[] {
  const parts: Part[] = [];
  let i = 0;
  while (i < segment.length) {
    const open = segment.indexOf('{', i);
    if (open < 0) {
      parts.push({ literal: segment.slice(i) });
      break;
    }
    if (open > i) parts.push({ literal: segment.slice(i, open) });
    const close = segment.indexOf('}', open);
    if (close < 0) throw new Error(`route "${template}": unclosed "{"`);
    parts.push({ param: parseParam(segment.slice(open + 1, close), template) });
    i = close + 1;
  }
  return parts;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function compileSegment(segment: string, template: string, isLast: boolean): { segment: Segment; rank: number } {
  const parts = parseParts(segment, template);
  if (parts.length === 1 && 'literal' in parts[0]!)
    return { segment: { kind: 'literal', text: parts[0].literal }, rank: 1 };
  if (parts.length === 1 && 'param' in parts[0]!) {
    const param = parts[0].param as Param & { catchAll?: boolean };
    if (param.catchAll) {
      if (!isLast) throw new Error(`route "${template}": a catch-all parameter must be the last segment`);
      return { segment: { kind: 'catchAll', param }, rank: 5 };
    }
    return { segment: { kind: 'param', param }, rank: param.constraints.length ? 3 : 4 };
  }
  const params: Param[] = [];
  let source = '^';
  for (const part of parts) {
    if ('literal' in part) source += escapeRegex(part.literal);
    else {
      if ((part.param as Param & { catchAll?: boolean }).catchAll) {
        throw new Error(`route "${template}": a catch-all parameter cannot share a segment`);
      }
      params.push(part.param);
      source += '(.+?)';
    }
  }
  return { segment: { kind: 'mixed', regex: new RegExp(`${source}$`, 'i'), params }, rank: 2 };
}

/** Splits a path or template into segments, ignoring the leading and any trailing slash. */
function splitPath(path: string): string[] {
  const trimmed = path.replace(/^\/+/, '').replace(/\/+$/, '');
  return trimmed === '' ? [] : trimmed.split('/');
}

/** Decodes a path segment as the host does, leaving malformed escapes as they were. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function accepts(param: Param, value: string): boolean {
  return param.constraints.every((c) => c(value));
}

function matchSegments(segments: Segment[], path: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  let i = 0;
  for (const seg of segments) {
    if (seg.kind === 'catchAll') {
      const rest = path.slice(i).map(decodeSegment).join('/');
      const value = rest === '' && seg.param.defaultValue !== undefined ? seg.param.defaultValue : rest;
      if (value !== '' && !accepts(seg.param, value)) return undefined;
      if (value !== '') params[seg.param.name] = value;
      return params;
    }
    if (i >= path.length) {
      // Only trailing optional or defaulted parameters may be missing.
      if (seg.kind !== 'param' || !(seg.param.optional || seg.param.defaultValue !== undefined)) return undefined;
      if (seg.param.defaultValue !== undefined) params[seg.param.name] = seg.param.defaultValue;
      continue;
    }
    const raw = path[i];
    const value = decodeSegment(raw!);
    if (seg.kind === 'literal') {
      if (value.toLowerCase() !== seg.text.toLowerCase()) return undefined;
    } else if (seg.kind === 'param') {
      if (value === '' || !accepts(seg.param, value)) return undefined;
      params[seg.param.name] = value;
    } else {
      const m = seg.regex.exec(value);
      if (!m) return undefined;
      for (let p = 0; p < seg.params.length; p++) {
        const param = seg.params[p]!;
        // An optional parameter left out has no group match; the constraints decide what that means.
        const v = m[p + 1] as string;
        if (!accepts(param, v)) return undefined;
        params[param.name] = v;
      }
    }
    i++;
  }
  return i === path.length ? params : undefined;
}

function comparePrecedence(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    // A missing segment sorts after any present one: "a/b" is tried before "a/{x?}" can claim "a".
    const x = a[i] ?? 9;
    const y = b[i] ?? 9;
    if (x !== y) return x - y;
  }
  return 0;
}

/** Joins the host's route prefix and a function's template into the path template the host serves. */
export function fullTemplate(prefix: string, template: string): string {
  const p = prefix.replace(/^\/+|\/+$/g, '');
  const t = template.replace(/^\/+|\/+$/g, '');
  return [p, t].filter((s) => s !== '').join('/');
}

export class RouteTable<T> {
  readonly #routes: CompiledRoute<T>[] = [];

  /** Throws on the first invalid template, naming it: the host refuses to start in that case too. */
  constructor(definitions: RouteDefinition<T>[], prefix: string) {
    definitions.forEach((definition, order) => {
      const full = fullTemplate(prefix, definition.template);
      const raw = splitPath(full);
      const compiled = raw.map((s, i) => {
        if (s === '') throw new Error(`route "${definition.template}": empty segment`);
        return compileSegment(s, definition.template, i === raw.length - 1);
      });
      const names = compiled.flatMap(({ segment }) =>
        segment.kind === 'mixed'
          ? segment.params.map((p) => p.name)
          : segment.kind === 'literal'
            ? []
            : [segment.param.name],
      );
      const dupe = names.find((n, i) => names.findIndex((m) => m.toLowerCase() === n.toLowerCase()) !== i);
      if (dupe) throw new Error(`route "${definition.template}": parameter "${dupe}" appears twice`);
      const methods = definition.methods?.length ? new Set(definition.methods.map((m) => m.toUpperCase())) : undefined;
      this.#routes.push({
        definition,
        fullTemplate: full,
        segments: compiled.map((c) => c.segment),
        precedence: compiled.map((c) => c.rank),
        methods,
        order,
      });
    });
    this.#routes.sort((a, b) => comparePrecedence(a.precedence, b.precedence) || a.order - b.order);
  }

  /** `path` is the request path without the query string, still percent-encoded. */
  match(method: string, path: string): RouteMatch<T> | undefined {
    const segments = splitPath(path);
    const upper = method.toUpperCase();
    for (const route of this.#routes) {
      if (route.methods && !route.methods.has(upper)) continue;
      const params = matchSegments(route.segments, segments);
      if (params) return { target: route.definition.target, params };
    }
    return undefined;
  }

  /** The served routes, most specific first, for the start-up listing. */
  describe(): { methods: string; path: string; target: T }[] {
    return this.#routes.map((r) => ({
      methods: r.methods ? [...r.methods].join(',') : '*',
      path: `/${r.fullTemplate}`,
      target: r.definition.target,
    }));
  }
}
