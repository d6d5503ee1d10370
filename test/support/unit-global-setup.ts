import { publishParsedCatalogues, removeParsedCatalogues } from './parsed-catalogues';
import { leaveForTeardown } from './global-teardown';
import { publishCompiledCueSchema, removeCompiledCueSchema } from './compiled-cue-schema';

/**
 * `npm run test:unit`'s global setup: no stack, only the fixtures built once per run (parsed-catalogues.ts,
 * compiled-cue-schema.ts).
 */
export default function unitGlobalSetup(): void {
  const catalogues = publishParsedCatalogues();
  const cueSchema = publishCompiledCueSchema();
  leaveForTeardown(async () => {
    removeParsedCatalogues(catalogues);
    removeCompiledCueSchema(cueSchema);
  });
}
