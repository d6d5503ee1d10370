/**
 * A real `import()` for ES modules (openapi-typescript, @redocly/openapi-core, `.mjs` function entry points): tsc's
 * CommonJS output turns an `import()` written in the source into `require()`, which cannot load them.
 */
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- a constant body, the only way to keep import() in CommonJS output
export const dynamicImport = new Function('specifier', 'return import(specifier)') as <T = unknown>(
  specifier: string,
) => Promise<T>;
