/**
 * The most records one export job takes: what a body may name (shared/api/export-schemas.ts) and what `pending=1`
 * chooses at most (shared/export/pending-export.ts).
 */
export const MAX_EXPORT_RECORDS = 5000;
