/**
 * What a dataset version would hold (pure): for every scenario of the considered environments,
 * either an included item pinned to explicit environment and validator versions, or an excluded
 * one with the reason. Default pins are the accepted versions (what a reviewer read); an item is
 * included only when a validator proof VERIFIED exactly those pins. Anything else enters only by a
 * written override, and is marked as such. The preview and the creation use this same function.
 */
import type { ScenarioDifficulty } from "../difficulty/estimators";
import { acceptedEnvironmentVersionId, acceptedValidatorVersionIds } from "../review/acceptance";
import { type NearMissStrength, isWeakValidator } from "../scenarios/near-miss-strength";
import { type PinnedProofStatus, type ProofRow, pinnedProofStatus } from "../scenarios/proof-status";
import type { DatasetDifficulty } from "./dataset.schema";
import {
  type DifficultySummary,
  compareByDifficulty,
  difficultyExclusion,
  summarizeDifficulty,
} from "./difficulty-plan";
import { compareKeys, planKey } from "./key-order";
import { type SplitName, splitByEnvironment } from "./split";

export type PlanProof = ProofRow;

export type PlanEnvironment = {
  id: string;
  slug: string;
  name: string;
  status: string;
  currentVersionId: string | null;
  acceptedVersionId: string | null;
  versions: { id: string; version: number }[];
};

export type PlanScenario = {
  id: string;
  externalId: string;
  environmentId: string;
  status: string;
  acceptedValidatorVersionIds: unknown;
  currentValidatorVersionIds: string[];
  /** Version number of every validator version id named above (what pages and exports show). */
  validatorVersionNumbers: Record<string, number>;
  /** Newest first: the only source of proof status (lib/scenarios/proof-status.ts). */
  proofs: PlanProof[];
};

export type PlanOptions = {
  pins: Record<string, string>;
  override: boolean;
  excludeScenarioIds: string[];
  seed: number;
  testRatio: number;
  /**
   * Figures per scenario id on the pins `candidatePins` names (loaded in SQL), and the filters that
   * use them. Without it items carry no difficulty and nothing is left out for it.
   */
  difficulty?: { byScenario: ReadonlyMap<string, ScenarioDifficulty>; options: DatasetDifficulty };
};

export type PlanItem = {
  scenarioId: string;
  key: string;
  environmentId: string;
  environmentSlug: string;
  environmentVersionId: string;
  environmentVersion: number;
  validatorVersionIds: string[];
  validatorVersions: number[];
  split: SplitName;
  overridden: boolean;
  note: string;
  /** Pooled and per-model figures on exactly this item's pins (null when the plan had none). */
  difficulty: ScenarioDifficulty | null;
  /** Validator strength of exactly these pins (filled by the loader from the proof rows; null: not measured). */
  strength: NearMissStrength | null;
};
/** What resolves an exclusion: a page to open (with the control that does it), or a hint. */
export type PlanAction = { label: string; href?: string };
export type PlanExcluded = {
  scenarioId: string;
  key: string;
  reason: string;
  needsOverride: boolean;
  action?: PlanAction;
};
export type PlanEnvironmentChoice = {
  id: string;
  slug: string;
  pinnedVersionId: string | null;
  acceptedVersionId: string | null;
  currentVersionId: string | null;
  versions: { id: string; version: number; accepted: boolean; current: boolean }[];
};
export type DatasetPlan = {
  included: PlanItem[];
  excluded: PlanExcluded[];
  warnings: string[];
  environments: PlanEnvironmentChoice[];
  difficulty: DifficultySummary | null;
};

export type Verdict =
  { ok: true; note: string } | { ok: false; reason: string; needsOverride: boolean; action?: PlanAction };

/**
 * Whether one scenario enters on these pins, and why not. `proof` is the newest proof's verdict on
 * exactly (envPin, vals) — what pinnedProofStatus reads from the proof rows, or what the preview
 * reads from the kept plan facts — so both paths judge with this one function.
 */
export function judgeScenario(
  s: Pick<PlanScenario, "id" | "status">,
  env: Pick<PlanEnvironment, "id" | "status" | "currentVersionId" | "acceptedVersionId">,
  envPin: string | null,
  vals: readonly string[] | null,
  proof: PinnedProofStatus,
  versionOf: (id: string) => number,
): Verdict {
  const scenarioPage = `/scenarios/${s.id}`;
  if (s.status === "REJECTED")
    return {
      ok: false,
      reason: "rejected by a reviewer",
      needsOverride: false,
      action: { label: "open the scenario to edit it", href: scenarioPage },
    };
  if (vals === null)
    return {
      ok: false,
      reason: "not accepted (waiting for review)",
      needsOverride: false,
      action: { label: "review it", href: scenarioPage },
    };
  if (envPin === null)
    return {
      ok: false,
      reason: "environment not accepted",
      needsOverride: true,
      action: { label: "review the environment", href: `/environments/${env.id}/quality` },
    };
  const problems: string[] = [];
  const envAccepted = acceptedEnvironmentVersionId(env);
  if (envPin !== envAccepted) problems.push(`environment v${versionOf(envPin)} not accepted`);
  const changed = s.status !== "ACCEPTED";
  if (proof !== "VERIFIED")
    problems.push(
      `${changed ? "changed since accepted and " : ""}${proof === "FAILED" ? "proof failed" : "proof missing"} for environment v${versionOf(envPin)}`,
    );
  if (problems.length)
    return {
      ok: false,
      reason: problems.join("; "),
      needsOverride: true,
      action: resolution(s, env, envPin, envAccepted, proof),
    };
  const notes = [
    changed ? "changed since accepted: pinned to the accepted checks" : "",
    envPin !== env.currentVersionId
      ? `environment changed since accepted: pinned to v${versionOf(envPin)}`
      : "",
  ];
  return { ok: true, note: notes.filter(Boolean).join("; ") };
}

/** The first thing to do about an item whose pins are not accepted and proven. */
function resolution(
  s: Pick<PlanScenario, "id">,
  env: Pick<PlanEnvironment, "id" | "currentVersionId">,
  envPin: string,
  envAccepted: string | null,
  proof: string,
): PlanAction {
  if (envPin !== envAccepted) return { label: "pick an accepted environment version above" };
  if (proof === "FAILED") return { label: "see why the proof failed", href: `/scenarios/${s.id}` };
  if (envPin !== env.currentVersionId)
    return { label: "review and prove the current version, then pin it", href: `/environments/${env.id}` };
  return { label: "prove it", href: `/environments/${env.id}` };
}

/** Version number of any environment version id of these environments (0 when unknown). */
export function versionLookup(environments: Pick<PlanEnvironment, "versions">[]): (id: string) => number {
  const numbers = new Map(environments.flatMap((e) => e.versions.map((v) => [v.id, v.version] as const)));
  return (id) => numbers.get(id) ?? 0;
}

/** The environment version a plan pins: the chosen one, else the accepted one, else (by override) the current one. */
export const envPinOf = (
  env: Pick<PlanEnvironment, "id" | "status" | "currentVersionId" | "acceptedVersionId">,
  opts: Pick<PlanOptions, "pins" | "override">,
) => opts.pins[env.id] ?? acceptedEnvironmentVersionId(env) ?? (opts.override ? env.currentVersionId : null);

/**
 * The pins each scenario would be planned on (what difficulty is read for): the chosen or accepted
 * environment version and the accepted validator versions. Scenarios without both are absent.
 */
export function candidatePins(
  environments: PlanEnvironment[],
  scenarios: PlanScenario[],
  opts: Pick<PlanOptions, "pins" | "override">,
): { scenarioId: string; environmentVersionId: string; validatorVersionIds: string[] }[] {
  const envById = new Map(environments.map((e) => [e.id, e]));
  return scenarios.flatMap((s) => {
    const env = envById.get(s.environmentId);
    const envPin = env ? envPinOf(env, opts) : null;
    const vals = acceptedValidatorVersionIds(s);
    return envPin && vals
      ? [{ scenarioId: s.id, environmentVersionId: envPin, validatorVersionIds: vals }]
      : [];
  });
}

export function planDatasetVersion(
  environments: PlanEnvironment[],
  scenarios: PlanScenario[],
  opts: PlanOptions,
): DatasetPlan {
  const envById = new Map(environments.map((e) => [e.id, e]));
  const versionOf = versionLookup(environments);
  const included: Omit<PlanItem, "split">[] = [];
  const excluded: PlanExcluded[] = [];
  const userExcluded = new Set(opts.excludeScenarioIds);
  const keyed = scenarios.flatMap((s) => {
    const env = envById.get(s.environmentId);
    return env ? [{ s, env, key: planKey(env.slug, s.externalId) }] : [];
  });
  // Key order (code points), whatever order the loader used: the preview's SQL pages the same way.
  keyed.sort((a, b) => compareKeys(a.key, b.key));
  for (const { s, env, key } of keyed) {
    if (userExcluded.has(s.id)) {
      excluded.push({ scenarioId: s.id, key, reason: "left out by you", needsOverride: false });
      continue;
    }
    const envPin = envPinOf(env, opts);
    const vals = acceptedValidatorVersionIds(s);
    const proof =
      envPin && vals
        ? pinnedProofStatus(s.proofs, { environmentVersionId: envPin, validatorVersionIds: vals })
        : "PENDING";
    const verdict = judgeScenario(s, env, envPin, vals, proof, versionOf);
    const base = {
      scenarioId: s.id,
      key,
      environmentId: env.id,
      environmentSlug: env.slug,
      environmentVersionId: envPin ?? "",
      environmentVersion: envPin ? versionOf(envPin) : 0,
      validatorVersionIds: vals ?? [],
      validatorVersions: (vals ?? []).map((id) => s.validatorVersionNumbers[id] ?? 0),
      difficulty: opts.difficulty?.byScenario.get(s.id) ?? null,
      strength: null,
    };
    if (verdict.ok) included.push({ ...base, overridden: false, note: verdict.note });
    else if (verdict.needsOverride && opts.override && envPin)
      included.push({ ...base, overridden: true, note: `override: ${verdict.reason}` });
    else
      excluded.push({
        scenarioId: s.id,
        key,
        reason: verdict.reason,
        needsOverride: verdict.needsOverride,
        ...(verdict.action ? { action: verdict.action } : {}),
      });
  }
  const withSplit = assignSplit(included, opts);
  const shaped = opts.difficulty ? shapeByDifficulty(withSplit, opts.difficulty.options) : null;
  const kept = shaped?.kept ?? withSplit;
  return {
    included: kept,
    excluded: [...excluded, ...(shaped?.excluded ?? [])],
    warnings: warningsOf(environments, scenarios, kept, opts),
    environments: environments.map((e) => choiceOf(e, opts)),
    difficulty: shaped?.summary ?? null,
  };
}

export const DIFFICULTY_ACTION: PlanAction = { label: "change the difficulty filters above" };

/** Difficulty exclusions after the split (a band belongs to a split), then the chosen order. */
function shapeByDifficulty(items: PlanItem[], options: DatasetDifficulty) {
  const kept: PlanItem[] = [];
  const excluded: PlanExcluded[] = [];
  const counts = { zeroSignal: 0, band: 0 };
  for (const item of items) {
    const out = difficultyExclusion(item, options);
    if (!out) {
      kept.push(item);
      continue;
    }
    counts[out.kind] += 1;
    excluded.push({
      scenarioId: item.scenarioId,
      key: item.key,
      reason: out.reason,
      needsOverride: false,
      action: DIFFICULTY_ACTION,
    });
  }
  kept.sort(compareByDifficulty(options.sort));
  return { kept, excluded, summary: summarizeDifficulty(items, kept, counts, options) };
}

function assignSplit(items: Omit<PlanItem, "split">[], opts: PlanOptions): PlanItem[] {
  const counts = new Map<string, number>();
  for (const i of items) counts.set(i.environmentSlug, (counts.get(i.environmentSlug) ?? 0) + 1);
  const sides = splitByEnvironment(
    [...counts].map(([environmentKey, scenarioCount]) => ({ environmentKey, scenarioCount })),
    opts.seed,
    opts.testRatio,
  );
  return items.map((i) => ({ ...i, split: sides.get(i.environmentSlug) ?? "TRAIN" }));
}

function warningsOf(
  environments: PlanEnvironment[],
  scenarios: PlanScenario[],
  items: PlanItem[],
  opts: PlanOptions,
): string[] {
  const tally = (ids: string[]) => {
    const m = new Map<string, number>();
    for (const id of ids) m.set(id, (m.get(id) ?? 0) + 1);
    return m;
  };
  return planWarnings(
    environments,
    {
      scenariosByEnvironment: tally(scenarios.map((s) => s.environmentId)),
      includedByEnvironment: tally(items.map((i) => i.environmentId)),
      included: items.length,
      test: items.filter((i) => i.split === "TEST").length,
      overridden: items.filter((i) => i.overridden).length,
    },
    opts.testRatio,
  );
}

/** What a plan's warnings are computed from: the included items (after every exclusion), tallied. */
export type PlanTallies = {
  scenariosByEnvironment: ReadonlyMap<string, number>;
  includedByEnvironment: ReadonlyMap<string, number>;
  included: number;
  test: number;
  overridden: number;
};

export function planWarnings(
  environments: Pick<PlanEnvironment, "id" | "slug">[],
  t: PlanTallies,
  testRatio: number,
): string[] {
  const warnings: string[] = [];
  if (t.included > 0 && testRatio > 0 && t.test === 0)
    warnings.push("The test split is empty: all included scenarios come from one environment.");
  if (t.included > 0 && t.test === t.included) warnings.push("The train split is empty.");
  for (const env of environments) {
    const total = t.scenariosByEnvironment.get(env.id) ?? 0;
    const taken = t.includedByEnvironment.get(env.id) ?? 0;
    if (total === 0) warnings.push(`${env.slug} has no scenarios.`);
    else if (taken === 0) warnings.push(`${env.slug}: none of its ${total} scenarios can be included.`);
  }
  if (t.overridden)
    warnings.push(`${t.overridden} item(s) enter by override, without accepted and proven versions.`);
  return warnings;
}

export function choiceOf(
  env: PlanEnvironment,
  opts: Pick<PlanOptions, "pins" | "override">,
): PlanEnvironmentChoice {
  const accepted = acceptedEnvironmentVersionId(env);
  return {
    id: env.id,
    slug: env.slug,
    acceptedVersionId: accepted,
    currentVersionId: env.currentVersionId,
    pinnedVersionId: envPinOf(env, opts),
    versions: [...env.versions]
      .sort((a, b) => b.version - a.version)
      .map((v) => ({ ...v, accepted: v.id === accepted, current: v.id === env.currentVersionId })),
  };
}

/** The plan with each included item's strength, and a warning for the weak ones (they still enter). */
export function withStrengths(
  plan: DatasetPlan,
  strengths: Map<string, NearMissStrength | null>,
): DatasetPlan {
  const included = plan.included.map((i) => ({ ...i, strength: strengths.get(i.scenarioId) ?? null }));
  const weak = included.filter((i) => isWeakValidator(i.strength)).length;
  return { ...plan, included, warnings: weak ? [...plan.warnings, weakWarning(weak)] : plan.warnings };
}

export const weakWarning = (weak: number) =>
  `${weak} included scenario(s) have a weak validator: a near-miss of the gold solution earns full reward.`;
