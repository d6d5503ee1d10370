import { CACHE_HEADERS } from '../conditional';

/** The answer to an `If-None-Match` that names the current ETag. */
export const NOT_MODIFIED = {
  status: 304,
  description: 'not modified: the answer the caller holds (its ETag in If-None-Match) still holds; no body',
  headers: CACHE_HEADERS,
};

/** What every catalogue operation's description says of its caching. */
export const CATALOGUE_CACHING =
  'The answer carries a strong `ETag` and `Cache-Control: private, max-age=...`; send the ETag back as ' +
  '`If-None-Match` to get 304 with no body while it still holds (it changes when an import changes the catalogue, ' +
  'and for answers about today, at midnight in Madrid).';
