/**
 * What the preview sends to the browser (pure): the plan's totals, the exclusions grouped by reason,
 * and one page of each list. A plan over 100,000 scenarios is computed whole on the server (the
 * split and the difficulty figures depend on every item), but the page only ever receives a page:
 * a browser table of 100,000 rows is neither readable nor fast.
 */
import { z } from "zod";
import { isWeakValidator } from "../scenarios/near-miss-strength";
import type { DatasetPlan, PlanAction, PlanExcluded, PlanItem } from "./plan";

export const PREVIEW_PAGE_SIZE = 100;
/** Warnings name environments one by one; past this many the rest are counted. */
const MAX_WARNINGS = 20;

export const PreviewPageSchema = z
  .object({
    offset: z.coerce.number().int().min(0).default(0),
    limit: z.coerce.number().int().min(1).max(500).default(PREVIEW_PAGE_SIZE),
    /** Which included items the page lists: all, or only those with a weak validator. */
    show: z.enum(["all", "weak"]).default("all"),
    /** Where the page of left-out items starts. */
    excludedOffset: z.coerce.number().int().min(0).default(0),
  })
  .default({ offset: 0, limit: PREVIEW_PAGE_SIZE, show: "all", excludedOffset: 0 });
export type PreviewPage = z.infer<typeof PreviewPageSchema>;

export type ExclusionReason = { reason: string; count: number; needsOverride: boolean; action?: PlanAction };

export type DatasetPreviewPage = Omit<DatasetPlan, "included" | "excluded"> & {
  totals: {
    scenarios: number;
    included: number;
    excluded: number;
    weak: number;
    overridden: number;
    needsOverride: number;
    /** Included items the current `show` lists (all, or the weak ones). */
    shown: number;
  };
  /** Every reason something is left out, most frequent first. */
  reasons: ExclusionReason[];
  included: PlanItem[];
  excluded: PlanExcluded[];
  page: PreviewPage;
};

/** Most frequent first, then by reason: the order the preview lists reasons in. */
export function orderReasons(reasons: Iterable<ExclusionReason>): ExclusionReason[] {
  return [...reasons].sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
}

function groupReasons(excluded: readonly PlanExcluded[]): ExclusionReason[] {
  const byReason = new Map<string, ExclusionReason>();
  for (const e of excluded) {
    const seen = byReason.get(e.reason);
    if (seen) seen.count += 1;
    else
      byReason.set(e.reason, {
        reason: e.reason,
        count: 1,
        needsOverride: e.needsOverride,
        ...(e.action ? { action: e.action } : {}),
      });
  }
  return orderReasons(byReason.values());
}

export function capWarnings(warnings: string[]): string[] {
  if (warnings.length <= MAX_WARNINGS) return warnings;
  const more = warnings.length - MAX_WARNINGS;
  return [...warnings.slice(0, MAX_WARNINGS), `…and ${more} more warning(s) like these.`];
}

/** The environments whose version a curator may want to choose: several versions, or none pinned. */
export const needsChoice = (e: { versions: readonly unknown[]; pinnedVersionId: string | null }) =>
  e.versions.length > 1 || e.pinnedVersionId === null;

export function previewPage(plan: DatasetPlan, page: PreviewPage): DatasetPreviewPage {
  const weak = plan.included.filter((i) => isWeakValidator(i.strength));
  const shown = page.show === "weak" ? weak : plan.included;
  return {
    warnings: capWarnings(plan.warnings),
    environments: plan.environments.filter(needsChoice),
    difficulty: plan.difficulty,
    totals: {
      scenarios: plan.included.length + plan.excluded.length,
      included: plan.included.length,
      excluded: plan.excluded.length,
      weak: weak.length,
      overridden: plan.included.filter((i) => i.overridden).length,
      needsOverride: plan.excluded.filter((e) => e.needsOverride).length,
      shown: shown.length,
    },
    reasons: groupReasons(plan.excluded),
    included: shown.slice(page.offset, page.offset + page.limit),
    excluded: plan.excluded.slice(page.excludedOffset, page.excludedOffset + page.limit),
    page,
  };
}
