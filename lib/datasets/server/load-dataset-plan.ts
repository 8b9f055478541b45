import "server-only";
/**
 * Reads what `planDatasetVersion` needs: the considered environments with their versions, their
 * scenarios with current and accepted validator versions, and every proof's pins. Environments
 * considered: the chosen ones, else every environment not rejected or failed (so the preview can
 * say why the others' scenarios are left out).
 */
import { Prisma } from "@/lib/db";
import { difficultyOf, loadRolloutCounts } from "@/lib/difficulty/server/scenario-difficulty";
import { proofRowOf } from "@/lib/scenarios/proof-status";
import { findPinnedStrengths } from "@/lib/scenarios/server/find-weak-validators";
import type { CreateDatasetVersionInputSchema } from "../dataset.schema";
import {
  type DatasetPlan,
  type PlanEnvironment,
  type PlanScenario,
  candidatePins,
  planDatasetVersion,
  withStrengths,
} from "../plan";

export type PlanInput = ReturnType<typeof CreateDatasetVersionInputSchema.parse>;
type Tx = Prisma.TransactionClient;

export async function loadEnvironments(tx: Tx, input: PlanInput): Promise<PlanEnvironment[]> {
  const chosen = input.environments?.length
    ? Prisma.sql`(e."id" = ANY(${input.environments}::text[]) OR e."slug" = ANY(${input.environments}::text[]))`
    : Prisma.sql`e."status"::text NOT IN ('REJECTED', 'FAILED')`;
  // One JSON text for all of them: at 10,000 environments decoding rows (or a nested findMany)
  // costs several times what Postgres spends reading them.
  const [row] = await tx.$queryRaw<{ environments: string | null }[]>`
    SELECT json_agg(json_build_array(e."id", e."slug", e."name", e."status"::text, e."currentVersionId",
                                     e."acceptedVersionId", v.ids, v.numbers) ORDER BY e."slug")::text AS environments
    FROM "Environment" e
    LEFT JOIN (SELECT "environmentId", array_agg("id") AS ids, array_agg("version") AS numbers
               FROM "EnvironmentVersion" GROUP BY "environmentId") v ON v."environmentId" = e."id"
    WHERE e."projectId" = ${input.projectId} AND ${chosen}`;
  type Row = [string, string, string, string, string | null, string | null, string[] | null, number[] | null];
  const rows = JSON.parse(row?.environments ?? "[]") as Row[];
  return rows.map(([id, slug, name, status, currentVersionId, acceptedVersionId, ids, numbers]) => ({
    id,
    slug,
    name,
    status,
    currentVersionId,
    acceptedVersionId,
    versions: (ids ?? []).map((versionId, i) => ({ id: versionId, version: numbers?.[i] ?? 0 })),
  }));
}

type ScenarioRow = Omit<PlanScenario, "proofs" | "validatorVersionNumbers">;
type ProofRowStored = {
  scenarioId: string;
  environmentVersionId: string;
  validatorVersionIds: unknown;
  status: string;
};

/**
 * Every scenario of the considered environments with its current validator versions, every proof's
 * pins (newest first) and the number of every validator version involved. Three flat queries whose
 * parameters do not grow with the corpus (the environment ids travel as one array), so a plan over
 * 100,000 scenarios is read as easily as one over ten.
 */
async function loadScenarios(tx: Tx, environmentIds: string[]): Promise<PlanScenario[]> {
  const [rows, proofs, numbers] = await Promise.all([
    tx.$queryRaw<ScenarioRow[]>`
      WITH s AS (SELECT * FROM "Scenario" WHERE "environmentId" = ANY(${environmentIds}::text[])),
           current AS (
             SELECT v."scenarioId", array_agg(v."currentVersionId" ORDER BY v."position") AS ids
             FROM "Validator" v JOIN s ON s."id" = v."scenarioId"
             WHERE v."currentVersionId" IS NOT NULL GROUP BY v."scenarioId")
      SELECT s."id", s."externalId", s."environmentId", s."status"::text AS "status", s."acceptedValidatorVersionIds",
             COALESCE(c.ids, '{}') AS "currentValidatorVersionIds"
      FROM s JOIN "Environment" e ON e."id" = s."environmentId" LEFT JOIN current c ON c."scenarioId" = s."id"
      ORDER BY e."slug", s."externalId"`,
    tx.$queryRaw<ProofRowStored[]>`
      SELECT p."scenarioId", p."environmentVersionId", p."validatorVersionIds", p."status"::text AS "status"
      FROM "ValidatorProof" p JOIN "Scenario" s ON s."id" = p."scenarioId"
      WHERE s."environmentId" = ANY(${environmentIds}::text[])
      ORDER BY p."scenarioId", p."createdAt" DESC, p."id" DESC`,
    tx.$queryRaw<{ id: string; version: number }[]>`
      SELECT vv."id", vv."version" FROM "ValidatorVersion" vv
      JOIN "Validator" v ON v."id" = vv."validatorId" JOIN "Scenario" s ON s."id" = v."scenarioId"
      WHERE s."environmentId" = ANY(${environmentIds}::text[])`,
  ]);
  const proofsOf = new Map<string, ReturnType<typeof proofRowOf>[]>();
  for (const p of proofs) {
    const list = proofsOf.get(p.scenarioId) ?? [];
    list.push(proofRowOf(p));
    proofsOf.set(p.scenarioId, list);
  }
  const numberOf = Object.fromEntries(numbers.map((n) => [n.id, n.version]));
  return rows.map((r) => ({ ...r, validatorVersionNumbers: numberOf, proofs: proofsOf.get(r.id) ?? [] }));
}

export async function loadDatasetPlan(tx: Tx, input: PlanInput): Promise<DatasetPlan> {
  const environments = await loadEnvironments(tx, input);
  const scenarios = await loadScenarios(
    tx,
    environments.map((e) => e.id),
  );
  const override = Boolean(overrideReasonOf(input));
  // Difficulty is summed in SQL over rollouts on exactly the pins each scenario would get.
  const pins = candidatePins(environments, scenarios, { pins: input.pins, override });
  const counts = await loadRolloutCounts(tx, pins);
  const plan = planDatasetVersion(environments, scenarios, {
    pins: input.pins,
    override,
    excludeScenarioIds: input.excludeScenarioIds,
    seed: input.seed,
    testRatio: input.testRatio,
    difficulty: {
      byScenario: difficultyOf(
        counts,
        pins.map((p) => p.scenarioId),
        input.difficulty,
      ),
      options: input.difficulty,
    },
  });
  const strengths = await findPinnedStrengths(
    tx,
    plan.included.map((i) => ({
      scenarioId: i.scenarioId,
      pins: { environmentVersionId: i.environmentVersionId, validatorVersionIds: i.validatorVersionIds },
    })),
  );
  return withStrengths(plan, strengths);
}

/** The written override reason; the CLI's `--allow-unverified` is an explicit override too. */
export function overrideReasonOf(input: PlanInput): string | null {
  if (input.overrideReason) return input.overrideReason;
  return input.allowUnverified ? "allowed unverified items (--allow-unverified)" : null;
}
