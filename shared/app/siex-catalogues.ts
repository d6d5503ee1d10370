import { CatalogueDetails } from '../catalog/catalogue-views';
import { CATALOGUES as SHARED, ParsedCatalogue, parseCatalogue as parse } from '../catalog/siex-codes/catalogues';
import type { KindCatalogues } from '../records/kind-entry';
import { RECORD_KINDS } from './record-kinds';

type Kind = (typeof RECORD_KINDS)[number];
/** The catalogues a kind's entry declares (never, for a kind with none of its own). */
type FilesOf<K> = K extends { load: { catalogues(): { files: infer F } } } ? F : never;
/** Every kind's catalogues as one object type, so that each name stays a literal key. */
type AllOf<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** What each kind of the registry brings of its own, in the registry's order. */
const declared: readonly KindCatalogues[] = RECORD_KINDS.flatMap((k) =>
  'catalogues' in k.load ? [k.load.catalogues()] : [],
);

/**
 * Every SIEX catalogue the gateway uses: those the catalog itself reads and any kind may (shared/catalog), then each
 * record kind's own as its entry declares them (`load.catalogues`), in the registry's order, which is the import
 * report's. The catalogue code takes them as a parameter, so it names no kind, and neither does this list.
 */
export const CATALOGUES = Object.assign({}, SHARED, ...declared.map((c) => c.files)) as typeof SHARED &
  AllOf<FilesOf<Kind>>;

export type CatalogueName = keyof typeof CATALOGUES;
export const catalogueNames = Object.keys(CATALOGUES) as CatalogueName[];

/** One catalogue's file, read. */
export function parseCatalogue(catalogue: CatalogueName, text: string): ParsedCatalogue {
  return parse(CATALOGUES[catalogue], text);
}

/** What the kinds add to the catalogue endpoint's entries of their catalogues. */
export const CATALOGUE_DETAILS: CatalogueDetails = Object.fromEntries(
  declared.flatMap((c) => Object.entries(c.details ?? {})),
);
