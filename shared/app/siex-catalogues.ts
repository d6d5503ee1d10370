import { ANALYSIS_CATALOGUES } from '../analysis/catalogues';
import { CatalogueDetails } from '../catalog/catalogue-views';
import { CATALOGUES as SHARED, ParsedCatalogue, parseCatalogue as parse } from '../catalog/siex-codes/catalogues';
import { FACILITY_CATALOGUES } from '../facility/catalogues';
import { FERTILIZATION_CATALOGUE_DETAILS, FERTILIZATION_CATALOGUES } from '../fertilization/catalogues';
import { HARVEST_CATALOGUES } from '../harvest/catalogues';
import { IRRIGATION_CATALOGUES } from '../irrigation/catalogues';
import { TREATED_SEED_CATALOGUES } from '../treated-seed/catalogues';
import { PHYTO_CATALOGUES } from '../phyto/catalogues';

/**
 * Every SIEX catalogue the gateway uses: those the catalog itself reads and any kind may (shared/catalog), then each
 * record kind's own, in the order the import reports them. The catalogue code takes them as a parameter, so it names
 * no kind; a kind with catalogues of its own adds them here.
 */
export const CATALOGUES = {
  ...SHARED,
  ...FERTILIZATION_CATALOGUES,
  ...HARVEST_CATALOGUES,
  ...IRRIGATION_CATALOGUES,
  ...ANALYSIS_CATALOGUES,
  ...FACILITY_CATALOGUES,
  ...TREATED_SEED_CATALOGUES,
  ...PHYTO_CATALOGUES,
};

export type CatalogueName = keyof typeof CATALOGUES;
export const catalogueNames = Object.keys(CATALOGUES) as CatalogueName[];

/** One catalogue's file, read. */
export function parseCatalogue(catalogue: CatalogueName, text: string): ParsedCatalogue {
  return parse(CATALOGUES[catalogue], text);
}

/** What the kinds add to the catalogue endpoint's entries of their catalogues. */
export const CATALOGUE_DETAILS: CatalogueDetails = { ...FERTILIZATION_CATALOGUE_DETAILS };
