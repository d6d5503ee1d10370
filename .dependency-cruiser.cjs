const { existsSync, readdirSync } = require('node:fs');
const path = require('node:path');

/**
 * The import rules `npm test` enforces (docs/architecture.md, "Layout"): the business core never depends on the HTTP
 * edge or the service container, production code never reaches into tooling, and nothing forms a cycle, neither between
 * files nor between folders.
 */
const DOMAIN = '^shared/(?!(http|app|api|openapi)/)';
const PRODUCTION = '^(functions|shared)/';
/** The records core, the export and the SIEX client: what every record kind shares, naming none (issue 33). */
const CORE = '^shared/(records|export|siex)/';
/**
 * What the core may import: the kind-free folders. Anything else under shared/ is a record kind's folder (a new one is
 * refused without an edit here), the wire (`api/`), the HTTP edge or the service container.
 */
const CORE_MAY_USE =
  '^shared/(records|export|siex|store|farms|domain|time|log|idempotency|clients|config|notify|http-client|catalog|cache|email|rules)/';

/**
 * The record kinds: the folders of shared/ that hold a `kind-entry.ts` (their entry in shared/app/record-kinds.ts),
 * found where the cruise runs, so a new kind is held by the rules below without an edit here. `records/` defines the
 * entry's type and is the core, not a kind.
 */
const SHARED = path.join(process.cwd(), 'shared');
const KINDS = (existsSync(SHARED) ? readdirSync(SHARED) : []).filter(
  (dir) => dir !== 'records' && existsSync(path.join(SHARED, dir, 'kind-entry.ts')),
);
/** Matches nothing when there is no kind, so the rules stay valid in any tree. */
const KIND = KINDS.length > 0 ? `^shared/(${KINDS.join('|')})/` : '^$a';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'production-not-tooling',
      severity: 'error',
      comment: 'The deployed bundle holds functions/ and shared/ only; local/, bench/ and test/ are never shipped.',
      from: { path: PRODUCTION },
      to: { path: '^(local|bench|test|clients)/' },
    },
    {
      name: 'domain-not-http',
      severity: 'error',
      comment: 'Business code raises DomainError with typed codes; only the HTTP edge knows statuses and requests.',
      from: { path: DOMAIN },
      to: { path: '^shared/(http|app)/' },
    },
    {
      name: 'core-names-no-kind',
      severity: 'error',
      comment:
        'A record kind is one folder registered by one line (shared/app/record-kinds.ts): the records core, the export and the SIEX client reach a kind through its port only, and never the wire.',
      from: { path: CORE },
      to: { path: '^shared/', pathNot: CORE_MAY_USE },
    },
    {
      name: 'no-kind-imports-another',
      severity: 'error',
      comment:
        'Kinds meet only through the core and its kind-free ports: a kind that imports another cannot be added, moved or removed alone. What two kinds share belongs in a kind-free folder (shared/rules/, shared/domain/).',
      from: { path: KIND },
      to: { path: KIND, pathNot: '^shared/$1/' },
    },
    {
      name: 'kind-wire-in-wire-modules',
      severity: 'error',
      comment:
        "A kind's domain is apart from the wire: only its wire modules (wire*.ts: its schemas, HTTP face, examples and the mapper between wire and domain) import shared/api/.",
      from: { path: KIND, pathNot: '/wire[^/]*\\.ts$' },
      to: { path: '^shared/api/' },
    },
    {
      name: 'dataset-schema-back-office-only',
      severity: 'error',
      comment: "The operators' input format maps into the domain; the domain never depends on it.",
      from: { path: PRODUCTION, pathNot: '^shared/backoffice/' },
      to: { path: '^shared/backoffice/dataset-schema\\.ts$' },
    },
    {
      name: 'no-file-cycles',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      severity: 'error',
      scope: 'folder',
      from: { path: PRODUCTION },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
