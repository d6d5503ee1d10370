import { publishParsedCatalogues, removeParsedCatalogues } from './parsed-catalogues';
import { leaveForTeardown } from './global-teardown';

/** `npm run test:unit`'s global setup: no stack, only the fixtures parsed once per run (parsed-catalogues.ts). */
export default function unitGlobalSetup(): void {
  const dir = publishParsedCatalogues();
  leaveForTeardown(async () => removeParsedCatalogues(dir));
}
