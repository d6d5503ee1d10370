/**
 * HTTP route templates and matching as the Functions host does them, for what function apps served here use:
 * literal segments, whole-segment `{name}` parameters and a last-segment catch-all `{*name}` (the gateway's answer to
 * unknown routes). Literal segments match case-insensitively, a trailing slash is ignored, parameter values are
 * percent-decoded; a catch-all takes the rest of the path, none included; the query string is not part of the path
 * (the server passes it through). Where two templates match, at the first segment where they differ a literal wins
 * over a parameter, a parameter over the end of a template, and everything over a catch-all (ASP.NET's route
 * precedence), then registration order. The rest of ASP.NET's route syntax (constraints, optional and default values,
 * text and a parameter in one segment) stops start-up with the template named, rather than match otherwise than the
 * host would. Pure: no I/O, unit-tested on its own.
 */

type Segment = { literal: string } | { param: string } | { rest: string };

export interface RouteDefinition<T> {
  /** The template without the prefix, as registered (`route`, or the function name when it has none). */
  template: string;
  /** Upper-case methods; undefined or empty means any method. */
  methods?: readonly string[];
  target: T;
}

interface RouteMatch<T> {
  target: T;
  params: Record<string, string>;
}

interface CompiledRoute<T> {
  definition: RouteDefinition<T>;
  fullTemplate: string;
  segments: Segment[];
  methods?: Set<string>;
}

const PARAMETER = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/;
const CATCH_ALL = /^\{\*([A-Za-z_][A-Za-z0-9_]*)\}$/;

function compileSegment(segment: string, template: string, last: boolean): Segment {
  if (segment === '') throw new Error(`route "${template}": empty segment`);
  const param = PARAMETER.exec(segment);
  if (param) return { param: param[1]! };
  const rest = CATCH_ALL.exec(segment);
  if (rest && last) return { rest: rest[1]! };
  if (/[{}]/.test(segment)) {
    throw new Error(
      `route "${template}": "${segment}" is not supported by the local runner (literal segments, {name} parameters and a last {*name} only)`,
    );
  }
  return { literal: segment.toLowerCase() };
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

/** At the first segment where the two differ: literal, then parameter, then the template's end, then a catch-all. */
function compareSpecificity(a: Segment[], b: Segment[]): number {
  const rank = (s: Segment | undefined) => (s === undefined ? 2 : 'literal' in s ? 0 : 'param' in s ? 1 : 3);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const difference = rank(a[i]) - rank(b[i]);
    if (difference !== 0) return difference;
  }
  return 0;
}

function matchSegments(segments: Segment[], path: string[]): Record<string, string> | undefined {
  const rest = segments.at(-1);
  const catchAll = rest !== undefined && 'rest' in rest;
  if (catchAll ? path.length < segments.length - 1 : segments.length !== path.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, segment] of segments.entries()) {
    if ('rest' in segment) {
      params[segment.rest] = path.slice(i).map(decodeSegment).join('/');
      break;
    }
    const value = decodeSegment(path[i]!);
    if ('literal' in segment) {
      if (value.toLowerCase() !== segment.literal) return undefined;
    } else {
      if (value === '') return undefined;
      params[segment.param] = value;
    }
  }
  return params;
}

/** Joins the host's route prefix and a function's template into the path template the host serves. */
export function fullTemplate(prefix: string, template: string): string {
  const p = prefix.replace(/^\/+|\/+$/g, '');
  const t = template.replace(/^\/+|\/+$/g, '');
  return [p, t].filter((s) => s !== '').join('/');
}

export class RouteTable<T> {
  readonly #routes: CompiledRoute<T>[] = [];

  /** Throws on the first template it cannot serve, naming it: the host refuses to start on an invalid one too. */
  constructor(definitions: RouteDefinition<T>[], prefix: string) {
    for (const definition of definitions) {
      const full = fullTemplate(prefix, definition.template);
      const parts = splitPath(full);
      const segments = parts.map((s, i) => compileSegment(s, definition.template, i === parts.length - 1));
      const names = segments
        .flatMap((s) => ('param' in s ? [s.param] : 'rest' in s ? [s.rest] : []))
        .map((n) => n.toLowerCase());
      const twice = names.find((n, i) => names.indexOf(n) !== i);
      if (twice) throw new Error(`route "${definition.template}": parameter "${twice}" appears twice`);
      const methods = definition.methods?.length ? new Set(definition.methods.map((m) => m.toUpperCase())) : undefined;
      this.#routes.push({ definition, fullTemplate: full, segments, methods });
    }
    // Array.prototype.sort is stable: equally specific routes keep their registration order.
    this.#routes.sort((a, b) => compareSpecificity(a.segments, b.segments));
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
