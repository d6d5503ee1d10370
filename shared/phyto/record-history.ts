import { FieldChange } from '../api/history-schemas';
import { PhytoRequest } from '../api/phyto-schemas';
import { requestFingerprint } from '../idempotency/idempotency';

/**
 * The fields of a registration request that differ between two versions of a record, each with its old and new value
 * (null where the field is not set). A record's history lists these, so an advisor sees what a correction changed.
 */
export function fieldChanges(before: PhytoRequest | null, after: PhytoRequest | null): FieldChange[] {
  const a = (before ?? {}) as Record<string, unknown>;
  const b = (after ?? {}) as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return fields
    .filter((f) => requestFingerprint(a[f] ?? null) !== requestFingerprint(b[f] ?? null))
    .map((field) => ({ field, old: a[field] ?? null, new: b[field] ?? null }));
}

/**
 * RFC 7396 JSON Merge Patch: a member set to null is removed, an object is merged member by member, anything else
 * replaces. A patch that is not an object replaces the whole target.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}
