import { z } from 'zod';
import { DomainError, isErrorCode, Violation, violation } from './errors';

/** `body.idcp[0].prov`: the form every violation path takes. */
export function formatPath(root: string, path: readonly PropertyKey[]): string {
  let out = root;
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

export function zodViolations(root: string, error: z.ZodError): Violation[] {
  const out: Violation[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys)
        out.push(violation('UNKNOWN_FIELD', formatPath(root, [...issue.path, key]), 'field not accepted here'));
    } else if (
      (issue.code === 'invalid_type' || issue.code === 'invalid_value' || issue.code === 'invalid_union') &&
      issue.input === undefined
    ) {
      // A missing field: `invalid_type` for most schemas, `invalid_value` for literals and enums (`type: "IDCP"`),
      // `invalid_union` for a field of several forms (a dose as a number or as text).
      out.push(violation('REQUIRED', formatPath(root, issue.path), 'required'));
    } else if (issue.code === 'invalid_union') {
      for (const n of unionLeaves(issue)) out.push(violation('INVALID_VALUE', formatPath(root, n.path), n.message));
    } else if (issue.code === 'custom' && isErrorCode(issue.params?.code)) {
      // A refinement that knows a sharper code than INVALID_VALUE says so (a repeated product, a mix too large).
      out.push({ code: issue.params.code, path: formatPath(root, issue.path), message: issue.message });
    } else {
      out.push(violation('INVALID_VALUE', formatPath(root, issue.path), issue.message));
    }
  }
  return out;
}

/**
 * What a union's failure says of the value. A union reports one failure per branch: the branch of the value's own type
 * says what is wrong with it ("0,6" for a dose of a number or decimal text is told about the text's point), else the
 * first says what was expected. A branch that is a union itself (an optional dose: the dose's forms, or null) is read
 * the same way, down to the leaves.
 */
function unionLeaves(issue: z.core.$ZodIssueInvalidUnion): { path: PropertyKey[]; message: string }[] {
  const ofItsType = issue.errors.find(
    (branch) => !branch.some((n) => n.code === 'invalid_type' && n.path.length === 0),
  );
  const nested = ofItsType ?? issue.errors[0] ?? [];
  if (nested.length === 0) return [{ path: issue.path, message: issue.message }];
  return nested.flatMap((n) =>
    (n.code === 'invalid_union' ? unionLeaves(n) : [n]).map((leaf) => ({
      path: [...issue.path, ...leaf.path],
      message: leaf.message,
    })),
  );
}

/** Validates input against a schema; throws a 400 listing every violation. */
export function parseOrThrow<S extends z.ZodType>(schema: S, root: string, input: unknown, detail: string): z.infer<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  throw new DomainError(detail, zodViolations(root, result.error));
}
