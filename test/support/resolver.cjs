const path = require('node:path');

/**
 * Jest's module resolution, with one change: zod's locale namespaces (`z.locales`, `z.core.locales`) get English
 * only, as the deployed bundle has them (local/build-package.ts, `englishZodLocales`). zod requires its ~60 locale
 * modules to fill the namespaces; every test file has a fresh module registry, so each file that imports zod compiled
 * and ran them all again, about 4 s of CPU in `npm run test:unit`. The gateway's messages are zod's English ones.
 */
const ZOD_LOCALES = `${path.sep}node_modules${path.sep}zod${path.sep}v4${path.sep}locales${path.sep}index.cjs`;
const ENGLISH = path.join(__dirname, 'zod-english-locales.cjs');

module.exports = (request, options) => {
  const resolved = options.defaultResolver(request, options);
  return resolved.endsWith(ZOD_LOCALES) ? ENGLISH : resolved;
};
