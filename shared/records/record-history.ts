import { FieldChange } from './record-version';
import { requestFingerprint } from '../idempotency/idempotency';

/**
 * The fields of a registration request (of any kind) that differ between two versions of a record, each with its old and new value
 * (null where the field is not set). A record's history lists these, so an advisor sees what a correction changed.
 */
export function fieldChanges<Req extends object>(before: Req | null, after: Req | null): FieldChange[] {
  const a = (before ?? {}) as Record<string, unknown>;
  const b = (after ?? {}) as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return fields
    .filter((f) => requestFingerprint(a[f] ?? null) !== requestFingerprint(b[f] ?? null))
    .map((field) => ({ field, old: a[field] ?? null, new: b[field] ?? null }));
}

type JsonObject = Record<string, unknown>;

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * RFC 7396 JSON Merge Patch: a member set to null is removed, an object is merged member by member, anything else
 * replaces. A patch that is not an object replaces the whole target. Walked with a work list, not recursion, so no
 * patch is deep enough to exhaust the stack (the HTTP edge refuses bodies over 64 levels anyway).
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const root: JsonObject = isObject(target) ? { ...target } : {};
  const work: [JsonObject, JsonObject][] = [[root, patch]];
  for (let next = work.pop(); next; next = work.pop()) {
    const [out, part] = next;
    for (const [key, value] of Object.entries(part)) {
      if (value === null) delete out[key];
      else if (isObject(value)) {
        const merged: JsonObject = isObject(out[key]) ? { ...out[key] } : {};
        out[key] = merged;
        work.push([merged, value]);
      } else out[key] = value;
    }
  }
  return root;
}
