import { publishParsedCatalogues, removeParsedCatalogues } from './parsed-catalogues';
import { leaveForTeardown } from './global-teardown';
import { publishCompiledCueSchema, removeCompiledCueSchema } from './compiled-cue-schema';
import { askForQuickProperties } from '../helpers/property-runs';

/**
 * `npm run test:unit`'s global setup: no stack, only the fixtures built once per run (parsed-catalogues.ts,
 * compiled-cue-schema.ts), and the properties tried on a quarter of their cases (test/helpers/property-runs.ts).
 */
export default function unitGlobalSetup(): void {
  askForQuickProperties();
  const catalogues = publishParsedCatalogues();
  const cueSchema = publishCompiledCueSchema();
  leaveForTeardown(async () => {
    removeParsedCatalogues(catalogues);
    removeCompiledCueSchema(cueSchema);
  });
}
