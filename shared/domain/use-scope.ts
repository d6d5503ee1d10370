import { z } from 'zod';

/**
 * What a product's use treats, as the register authorises it (issue 34): growing crops in the field,
 * produce, stores and premises, or seed before sowing (each a CUE block of its own, recorded by a kind of its own). A
 * use authorises treatments of its own scope only: an imazalil wax for picked oranges says nothing about spraying
 * orange trees. How the register import reads it: shared/catalog/register/read-scope.ts.
 */
export const useScopes = ['field', 'postharvest', 'facility', 'seed'] as const;
export const useScopeSchema = z.enum(useScopes);
export type UseScope = z.infer<typeof useScopeSchema>;
