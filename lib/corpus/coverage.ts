/** Buckets of "environments by share of tools on a proven gold path" (a tool no proven scenario calls is untested). */
export const COVERAGE_BUCKETS = [
  { label: "none", min: 0, max: 0 },
  { label: "under half", min: 0.000001, max: 0.499999 },
  { label: "half or more", min: 0.5, max: 0.999999 },
  { label: "all", min: 1, max: 1 },
] as const;

export function coverageBucket(covered: number, tools: number): string {
  const share = tools ? covered / tools : 0;
  return COVERAGE_BUCKETS.find((b) => share >= b.min && share <= b.max)?.label ?? "none";
}
