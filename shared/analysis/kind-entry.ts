/* eslint-disable @typescript-eslint/no-require-imports, @typescript-eslint/no-unsafe-assignment -- the loaders this
   entry exists for: each module required on its first use (require() answers any), typed as that module */
import type { KindEntry } from '../records/kind-entry';
import type * as Kind from './analysis-kind';
import type * as Reads from './kind-reads';
import type * as Catalogues from './catalogues';
import type * as Http from './wire-http';

/**
 * The analysis (`AgriAnalysis`, CUE `Analitica`, RD 1051/2022 arts. 5.b and 6) as the registry lists it
 * (shared/app/record-kinds.ts): its addresses, and its modules loaded on first use.
 */
export const analysisEntry = {
  urnType: 'AgriAnalysis',
  table: 'analysis',
  collection: 'v1/entities/agrianalyses',
  stem: 'Analysis',
  label: { a: 'an analysis', one: 'analysis', many: 'analyses', tag: 'analysis' },
  load: {
    kind: () => {
      const { analysisKind }: typeof Kind = require('./analysis-kind');
      return analysisKind;
    },
    reads: () => {
      const { analysisReads }: typeof Reads = require('./kind-reads');
      return analysisReads;
    },
    http: () => {
      const { analysisHttp }: typeof Http = require('./wire-http');
      return analysisHttp;
    },
    catalogues: () => {
      const { ANALYSIS_CATALOGUES }: typeof Catalogues = require('./catalogues');
      return { files: ANALYSIS_CATALOGUES };
    },
  },
} as const satisfies KindEntry;
