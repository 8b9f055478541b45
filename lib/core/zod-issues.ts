/**
 * The one way to turn zod issues into text a person reads: action and route refusals, config
 * errors, LLM answers the model must fix, located import errors. Structural on purpose (any
 * `{ issues }`), so pure folders need not import zod's error class.
 */
export type IssueLike = { readonly path: readonly PropertyKey[]; readonly message: string };

export type FormatIssuesOptions = {
  /** What to call an issue on the value itself (empty path). */
  root?: string;
  /** Only the first `max` issues (a long list buries the first, which is usually the cause). */
  max?: number;
  separator?: string;
  /** false: messages only, for schemas whose messages already name the field. */
  withPath?: boolean;
};

/** `a.b` for a nested field; String() because a path may hold symbols, which join() cannot print. */
export const issuePath = (issue: IssueLike): string => issue.path.map(String).join(".");

/** `email: enter an email address; password: enter your password`. */
export function formatZodIssues(
  error: { readonly issues: readonly IssueLike[] },
  options: FormatIssuesOptions = {},
): string {
  const { root = "input", max, separator = "; ", withPath = true } = options;
  const shown = max === undefined ? error.issues : error.issues.slice(0, max);
  if (shown.length === 0) return `${root}: invalid`;
  return shown.map((i) => (withPath ? `${issuePath(i) || root}: ${i.message}` : i.message)).join(separator);
}
