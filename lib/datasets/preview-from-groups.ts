/**
 * The dataset preview computed from grouped scenario facts (pure). Postgres groups the scenarios of
 * a plan by what decides their fate and this turns the groups into exactly what
 * planDatasetVersion + previewPage would say, in two stages:
 *   1. per environment and verdict class: the split (it needs each environment's included count),
 *      the verdict exclusions, and the difficulty lookup (left out or not, sort value) for every
 *      (side, n, successes) the included items have;
 *   2. the included items by side, counts, weak and override, and each environment's kept count:
 *      totals, difficulty exclusions, the zero-signal summary and the warnings.
 * Verdicts come from the same judgeScenario and difficultyExclusion the pure plan calls, once per
 * group instead of once per scenario. A property test holds the two paths equal
 * (server/preview-dataset-page.db.test.ts).
 */
import { type DifficultyFigures, difficultyFigures, zeroSignalShareOf } from "../difficulty/estimators";
import type { PinnedProofStatus } from "../scenarios/proof-status";
import type { DatasetDifficulty } from "./dataset.schema";
import { type DifficultySummary, difficultyExclusion } from "./difficulty-plan";
import { compareKeys, planKey } from "./key-order";
import {
  DIFFICULTY_ACTION,
  type PlanEnvironment,
  type PlanExcluded,
  type Verdict,
  envPinOf,
  judgeScenario,
  planWarnings,
  versionLookup,
  weakWarning,
} from "./plan";
import type { DatasetPreviewPage, ExclusionReason } from "./preview-page";
import { type SplitName, splitByEnvironment } from "./split";

/** How the SQL classifies a scenario before judging it (in the order judgeScenario checks). */
export const FACT_CLASSES = ["out", "rejected", "waiting", "noenv", "problem", "ok"] as const;
export type FactClass = (typeof FACT_CLASSES)[number];

/** Stage 1: the scenarios of one environment with one verdict. */
export type ClassGroup = {
  environmentId: string;
  cls: FactClass;
  /** Scenario status is ACCEPTED (else it changed since accepted); read for "problem" only. */
  accepted: boolean;
  /** Newest proof on the pins (VERIFIED, FAILED, or null for none); read for "problem" only. */
  proof: string | null;
  count: number;
  /** The first external id (code point order) of a left-out group: the scenario its action names. */
  first: string | null;
};

/** A verdict group as SQL reports it; a class the SQL does not know is judged as a problem. */
export const classGroupOf = (
  environmentId: string,
  cls: string,
  accepted: boolean | null,
  proof: string | null,
  count: number,
  first: string | null,
): ClassGroup => ({
  environmentId,
  cls: (FACT_CLASSES as readonly string[]).includes(cls) ? (cls as FactClass) : "problem",
  accepted: accepted ?? true,
  proof,
  count,
  first,
});

/** Stage 2: included scenarios by side and what difficulty, weak and override read. */
export type SideGroup = {
  test: boolean;
  n: number;
  successes: number;
  weak: boolean;
  problem: boolean;
  count: number;
};

export type PreviewOptions = {
  pins: Record<string, string>;
  override: boolean;
  seed: number;
  testRatio: number;
  difficulty: DatasetDifficulty;
};

/** Whether an included item with these counts on this side is left out by difficulty, and its sort value. */
export type DifficultyLookup = {
  test: boolean;
  n: number;
  successes: number;
  dropped: boolean;
  metric: number | null;
};

/** A reason to leave out, with the first group (plan order) that gives it: its action names a scenario. */
export type GroupReason = ExclusionReason & { first?: { group: ClassGroup; externalId: string } };

export const isIncluded = (cls: FactClass, override: boolean) =>
  cls === "ok" || (cls === "problem" && override);

export const proofOf = (proof: string | null): PinnedProofStatus =>
  proof === "VERIFIED" ? "VERIFIED" : proof === "FAILED" ? "FAILED" : "PENDING";

/** Figures that depend on the counts alone (what filters and sorts read; reward sums are not needed). */
export const figuresOf = (n: number, successes: number, opts: DatasetDifficulty): DifficultyFigures =>
  difficultyFigures({ n, successes, rewardSum: 0, rewardSquareSum: 0 }, opts);

/** The verdict of any scenario of a group (judged with the id the action should name). */
export function verdictOf(
  group: Pick<ClassGroup, "cls" | "accepted" | "proof">,
  scenarioId: string,
  env: PlanEnvironment,
  opts: Pick<PreviewOptions, "pins" | "override">,
  versionOf: (id: string) => number,
): Verdict {
  const status = group.cls === "rejected" ? "REJECTED" : group.accepted ? "ACCEPTED" : "NEEDS_REVIEW";
  return judgeScenario(
    { id: scenarioId, status },
    env,
    envPinOf(env, opts),
    group.cls === "waiting" ? null : [],
    proofOf(group.proof),
    versionOf,
  );
}

export type StageOne = {
  split: Map<string, SplitName>;
  testEnvironmentIds: string[];
  lookup: DifficultyLookup[];
  verdictReasons: GroupReason[];
  needsOverride: number;
};

/**
 * Whether an included item with these counts is left out by difficulty on each side, and its sort
 * value (the same on both sides: figures depend on the counts alone). `pairs` may hold more pairs
 * than the items have: a lookup entry nothing joins is never read.
 */
export function difficultyLookup(
  pairs: readonly { n: number; successes: number }[],
  opts: DatasetDifficulty,
): DifficultyLookup[] {
  return [false, true].flatMap((test) =>
    pairs.map(({ n, successes }) => {
      const figures = figuresOf(n, successes, opts);
      const out = difficultyExclusion({ split: test ? "TEST" : "TRAIN", difficulty: figures }, opts);
      const metric = opts.sort === "key" ? null : figures[opts.sort];
      return { test, n, successes, dropped: out !== null, metric };
    }),
  );
}

/**
 * Stage 1. `pairs` are (at least) the (n, successes) the included items have; the lookup covers
 * each on both sides, so stage 2 and the pages can join on it.
 */
export function stageOne(
  groups: readonly ClassGroup[],
  pairs: readonly { n: number; successes: number }[],
  environments: PlanEnvironment[],
  opts: PreviewOptions,
  versionOf: (id: string) => number = versionLookup(environments),
): StageOne {
  const envById = new Map(environments.map((e) => [e.id, e]));
  const includedByEnvironment = new Map<string, number>();
  const reasons = new Map<string, GroupReason>();
  let needsOverride = 0;
  for (const g of groups) {
    const env = envById.get(g.environmentId);
    if (!env) continue;
    if (isIncluded(g.cls, opts.override)) {
      includedByEnvironment.set(env.slug, (includedByEnvironment.get(env.slug) ?? 0) + g.count);
      continue;
    }
    const verdict: Verdict =
      g.cls === "out"
        ? { ok: false, reason: "left out by you", needsOverride: false }
        : verdictOf(g, "", env, opts, versionOf);
    if (verdict.ok) continue; // a group classed left out is never judged ok (the property test holds it)
    if (verdict.needsOverride) needsOverride += g.count;
    const first = g.cls !== "out" && g.first !== null ? { group: g, externalId: g.first } : undefined;
    const seen = reasons.get(verdict.reason);
    if (!seen) {
      reasons.set(verdict.reason, {
        reason: verdict.reason,
        count: g.count,
        needsOverride: verdict.needsOverride,
        ...(first ? { first } : {}),
      });
      continue;
    }
    seen.count += g.count;
    const keyOf = (f: NonNullable<GroupReason["first"]>) =>
      planKey(envById.get(f.group.environmentId)?.slug ?? "", f.externalId);
    if (first && (!seen.first || compareKeys(keyOf(first), keyOf(seen.first)) < 0)) seen.first = first;
  }
  // In the environments' (slug) order rather than the groups' (hash) order: the split sorts its
  // input anyway, and a sorted input spares it most comparisons (a locale compare each).
  const sides = splitByEnvironment(
    environments.flatMap((e) => {
      const scenarioCount = includedByEnvironment.get(e.slug);
      return scenarioCount === undefined ? [] : [{ environmentKey: e.slug, scenarioCount }];
    }),
    opts.seed,
    opts.testRatio,
  );
  const split = new Map(environments.map((e) => [e.id, sides.get(e.slug) ?? "TRAIN"]));
  return {
    split,
    testEnvironmentIds: environments.filter((e) => split.get(e.id) === "TEST").map((e) => e.id),
    lookup: difficultyLookup(pairs, opts.difficulty),
    verdictReasons: [...reasons.values()],
    needsOverride,
  };
}

export type StageTwo = {
  totals: Omit<DatasetPreviewPage["totals"], "shown">;
  reasons: GroupReason[];
  summary: DifficultySummary;
  warnings: string[];
};

/** Stage 2. `keptByEnvironment`: included items each environment keeps after the difficulty filters. */
export function stageTwo(
  one: StageOne,
  classGroups: readonly ClassGroup[],
  sideGroups: readonly SideGroup[],
  keptByEnvironment: ReadonlyMap<string, number>,
  environments: PlanEnvironment[],
  opts: PreviewOptions,
): StageTwo {
  const counts = { zeroSignal: 0, band: 0 };
  const reasons = new Map<string, GroupReason>(one.verdictReasons.map((r) => [r.reason, { ...r }]));
  const before: SideGroup[] = [];
  const after: SideGroup[] = [];
  for (const g of sideGroups) {
    before.push(g);
    const out = difficultyExclusion(
      { split: g.test ? "TEST" : "TRAIN", difficulty: figuresOf(g.n, g.successes, opts.difficulty) },
      opts.difficulty,
    );
    if (!out) {
      after.push(g);
      continue;
    }
    counts[out.kind] += g.count;
    const seen = reasons.get(out.reason);
    if (seen) seen.count += g.count;
    else
      reasons.set(out.reason, {
        reason: out.reason,
        count: g.count,
        needsOverride: false,
        action: DIFFICULTY_ACTION,
      });
  }
  const sum = (groups: SideGroup[], pick: (g: SideGroup) => boolean = () => true) =>
    groups.reduce((s, g) => s + (pick(g) ? g.count : 0), 0);
  const kept = sum(after);
  const weak = sum(after, (g) => g.weak);
  const overridden = sum(after, (g) => g.problem);
  const scenariosByEnvironment = new Map<string, number>();
  for (const g of classGroups)
    scenariosByEnvironment.set(g.environmentId, (scenariosByEnvironment.get(g.environmentId) ?? 0) + g.count);
  const scenarios = classGroups.reduce((s, g) => s + g.count, 0);
  const warnings = planWarnings(
    environments,
    {
      scenariosByEnvironment,
      includedByEnvironment: keptByEnvironment,
      included: kept,
      test: sum(after, (g) => g.test),
      overridden,
    },
    opts.testRatio,
  );
  if (weak) warnings.push(weakWarning(weak));
  return {
    totals: {
      scenarios,
      included: kept,
      excluded: scenarios - kept,
      weak,
      overridden,
      needsOverride: one.needsOverride,
    },
    reasons: [...reasons.values()],
    summary: {
      k: opts.difficulty.k,
      groupSize: opts.difficulty.groupSize,
      measured: sum(before, (g) => g.n > 0),
      zeroSignalShareBefore: zeroSignalShareOf(before, opts.difficulty.groupSize),
      zeroSignalShareAfter: zeroSignalShareOf(after, opts.difficulty.groupSize),
      excludedZeroSignal: counts.zeroSignal,
      excludedByBand: counts.band,
    },
    warnings,
  };
}

/** A left-out item of the page, judged as the pure plan judges it. */
export function excludedItem(
  row: {
    id: string;
    externalId: string;
    cls: FactClass;
    accepted: boolean;
    proof: string | null;
    n: number;
    successes: number;
  },
  env: PlanEnvironment,
  split: SplitName,
  opts: PreviewOptions,
  versionOf: (id: string) => number,
): PlanExcluded {
  const key = planKey(env.slug, row.externalId);
  if (row.cls === "out") return { scenarioId: row.id, key, reason: "left out by you", needsOverride: false };
  if (isIncluded(row.cls, opts.override)) {
    const figures = figuresOf(row.n, row.successes, opts.difficulty);
    const out = difficultyExclusion({ split, difficulty: figures }, opts.difficulty);
    return {
      scenarioId: row.id,
      key,
      reason: out?.reason ?? "",
      needsOverride: false,
      action: DIFFICULTY_ACTION,
    };
  }
  const verdict = verdictOf(row, row.id, env, opts, versionOf);
  if (verdict.ok) throw new Error(`scenario ${row.id} was classed as left out but judged ok`);
  return {
    scenarioId: row.id,
    key,
    reason: verdict.reason,
    needsOverride: verdict.needsOverride,
    ...(verdict.action ? { action: verdict.action } : {}),
  };
}
