/* eslint-disable @typescript-eslint/no-require-imports, @typescript-eslint/no-unsafe-assignment -- the loaders this
   entry exists for: each module required on its first use (require() answers any), typed as that module */
import type { KindEntry } from '../records/kind-entry';
import type * as Kind from './plan-kind';
import type * as Reads from './kind-reads';
import type * as Http from './wire-http';
import type * as Balance from './wire-nutrient-balance';

/**
 * The fertilization plan (`AgriFertilizationPlan`, CUE `PlanAbonado`, RD 1051/2022 arts. 5.a and 6) as the registry
 * lists it (shared/app/record-kinds.ts): its addresses, and its modules loaded on first use.
 */
export const fertilizationPlanEntry = {
  urnType: 'AgriFertilizationPlan',
  table: 'fertilizationplan',
  collection: 'v1/entities/agrifertilizationplans',
  stem: 'FertilizationPlan',
  label: {
    a: 'a fertilization plan',
    one: 'fertilization plan',
    many: 'fertilization plans',
    tag: 'fertilization plan',
  },
  load: {
    kind: () => {
      const { planKind }: typeof Kind = require('./plan-kind');
      return planKind;
    },
    reads: () => {
      const { planReads }: typeof Reads = require('./kind-reads');
      return planReads;
    },
    http: () => {
      const { planHttp }: typeof Http = require('./wire-http');
      return planHttp;
    },
  },
  views: [
    {
      // Each location's plan against the nutrients the kinds publish they brought it.
      operationId: 'nutrientBalance',
      route: 'v1/siex/nutrientbalance',
      shows: 'its fertilization plan against its fertilizations',
      load: () => {
        const { nutrientBalanceView }: typeof Balance = require('./wire-nutrient-balance');
        return nutrientBalanceView;
      },
    },
  ],
} as const satisfies KindEntry;
