/**
 * Validator strength (pure): what a proof's near-miss evidence says about a scenario's checks.
 * `total` counts the judged near-misses (near-miss.ts; crashed replays and ones that end in the gold
 * final state are not evidence either way), `rejected` those whose reward stayed below 1, `passed`
 * the ones that earned full reward — each a wrong solution the checks accept. A scenario with a
 * passing near-miss has a weak validator: it stays VERIFIED (the proof holds) and is flagged.
 */
import { nearMissCalls } from "./near-miss";
import {
  type GoldCall,
  GoldPartSchema,
  type NearMiss,
  type NearMissPart,
  NearMissPartSchema,
} from "./scenario.schema";

export type PassedNearMiss = { kind: NearMiss["kind"]; description: string; calls: GoldCall[] };

export type NearMissStrength = {
  status: NearMissPart["status"];
  reason: string | null;
  total: number;
  rejected: number;
  crashed: number;
  sameAsGold: number;
  /** Per checklist position: how many judged near-misses this check failed (or raised on). */
  perCheck: { position: number; rejected: number }[];
  passed: PassedNearMiss[];
};

/** What exports carry per scenario (`near_miss_strength`). */
export type ExportedNearMissStrength = { rejected: number; total: number; passed: PassedNearMiss[] };

const passes = (r: unknown) => !!r && typeof r === "object" && "passed" in r && r.passed === true;

export function strengthOf(part: NearMissPart, gold: GoldCall[], checkCount: number): NearMissStrength {
  const judged = part.results.filter((r) => r.outcome === "JUDGED");
  const passedResults = judged.filter((r) => r.reward !== null && r.reward >= 1);
  return {
    status: part.status,
    reason: part.reason,
    total: judged.length,
    rejected: judged.length - passedResults.length,
    crashed: part.results.filter((r) => r.outcome === "CRASHED").length,
    sameAsGold: part.results.filter((r) => r.outcome === "SAME_AS_GOLD").length,
    perCheck: Array.from({ length: checkCount }, (_, position) => ({
      position,
      rejected: judged.filter((r) => !passes(r.checks[position])).length,
    })),
    passed: passedResults.map((r) => ({
      kind: r.nearMiss.kind,
      description: r.nearMiss.description,
      calls: nearMissCalls(gold, r.nearMiss),
    })),
  };
}

export const isWeakValidator = (s: Pick<NearMissStrength, "status" | "passed"> | null) =>
  s !== null && s.status === "MEASURED" && s.passed.length > 0;

/** The export form: null when the proof measured nothing (not run), zeros when nothing was derivable. */
export function exportedStrength(s: NearMissStrength | null): ExportedNearMissStrength | null {
  if (!s || s.status === "NOT_RUN") return null;
  return { rejected: s.rejected, total: s.total, passed: s.passed };
}

/** One line for pages and lists: "12/14 near-misses rejected", or why there is no figure. */
export function strengthLabel(s: NearMissStrength | null): string {
  if (!s) return "not measured for these versions";
  if (s.status === "NONE_DERIVABLE") return `no near-misses derivable${s.reason ? `: ${s.reason}` : ""}`;
  if (s.status === "NOT_RUN") return `not measured${s.reason ? `: ${s.reason}` : ""}`;
  return `${s.rejected}/${s.total} near-misses rejected`;
}

/** The strength a stored proof row holds; null when it has no near-miss evidence (an older proof). */
export function strengthOfProofRow(row: {
  nearMiss: unknown;
  gold: unknown;
  validatorVersionIds: unknown;
}): NearMissStrength | null {
  const part = NearMissPartSchema.safeParse(row.nearMiss);
  if (!part.success) return null;
  const gold = GoldPartSchema.pick({ calls: true }).safeParse(row.gold);
  const checks = Array.isArray(row.validatorVersionIds) ? row.validatorVersionIds.length : 0;
  return strengthOf(part.data, gold.success ? gold.data.calls : [], checks);
}
