/**
 * HTTP route templates and matching as the Functions host does them, for what function apps served here use:
 * literal segments and whole-segment `{name}` parameters (the gateway's own routes are all literal). Literal segments
 * match case-insensitively, a trailing slash is ignored, parameter values are percent-decoded; the query string is
 * not part of the path (the server passes it through). Where two templates match, a literal segment wins over a
 * parameter at the first segment where they differ, then registration order. The rest of ASP.NET's route syntax
 * (constraints, optional and default values, catch-alls, text and a parameter in one segment) stops start-up with the
 * template named, rather than match otherwise than the host would. Pure: no I/O, unit-tested on its own.
 */

type Segment = { literal: string } | { param: string };

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

function compileSegment(segment: string, template: string): Segment {
  if (segment === '') throw new Error(`route "${template}": empty segment`);
  const param = PARAMETER.exec(segment);
  if (param) return { param: param[1]! };
  if (/[{}]/.test(segment)) {
    throw new Error(
      `route "${template}": "${segment}" is not supported by the local runner (literal segments and {name} parameters only)`,
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

/**
 * Literal before parameter at the first segment where the two differ. Templates of different lengths never match the
 * same path; a missing segment sorts last only so that the order is a consistent one.
 */
function compareSpecificity(a: Segment[], b: Segment[]): number {
  const rank = (s: Segment | undefined) => (s === undefined ? 2 : 'literal' in s ? 0 : 1);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const difference = rank(a[i]) - rank(b[i]);
    if (difference !== 0) return difference;
  }
  return 0;
}

function matchSegments(segments: Segment[], path: string[]): Record<string, string> | undefined {
  if (segments.length !== path.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, segment] of segments.entries()) {
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
      const segments = splitPath(full).map((s) => compileSegment(s, definition.template));
      const names = segments.flatMap((s) => ('param' in s ? [s.param.toLowerCase()] : []));
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
