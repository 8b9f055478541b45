import "server-only";
/**
 * Reads what `planDatasetVersion` needs: the considered environments with their versions, their
 * scenarios with current and accepted validator versions, and every proof's pins. Environments
 * considered: the chosen ones, else every environment not rejected or failed (so the preview can
 * say why the others' scenarios are left out).
 */
import type { Prisma } from "@/lib/db";
import { difficultyOf, loadRolloutCounts } from "@/lib/difficulty/server/scenario-difficulty";
import { idList } from "@/lib/review/acceptance";
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

type Input = ReturnType<typeof CreateDatasetVersionInputSchema.parse>;
type Tx = Prisma.TransactionClient;

async function loadEnvironments(tx: Tx, input: Input): Promise<PlanEnvironment[]> {
  const chosen = input.environments?.length
    ? { OR: [{ id: { in: input.environments } }, { slug: { in: input.environments } }] }
    : { status: { notIn: ["REJECTED" as const, "FAILED" as const] } };
  return tx.environment.findMany({
    where: { projectId: input.projectId, ...chosen },
    orderBy: { slug: "asc" },
    select: {
      id: true,
      slug: true,
      name: true,
      status: true,
      currentVersionId: true,
      acceptedVersionId: true,
      versions: { select: { id: true, version: true } },
    },
  });
}

async function loadScenarios(tx: Tx, environmentIds: string[]): Promise<PlanScenario[]> {
  const rows = await tx.scenario.findMany({
    where: { environmentId: { in: environmentIds } },
    orderBy: [{ environment: { slug: "asc" } }, { externalId: "asc" }],
    select: {
      id: true,
      externalId: true,
      environmentId: true,
      status: true,
      acceptedValidatorVersionIds: true,
      validators: { orderBy: { position: "asc" }, select: { currentVersionId: true } },
      proofs: {
        orderBy: { createdAt: "desc" },
        select: { environmentVersionId: true, validatorVersionIds: true, status: true },
      },
    },
  });
  const named = new Set(
    rows.flatMap((r) => [
      ...r.validators.map((v) => v.currentVersionId ?? ""),
      ...(idList(r.acceptedValidatorVersionIds) ?? []),
    ]),
  );
  const numbers = await tx.validatorVersion.findMany({
    where: { id: { in: [...named] } },
    select: { id: true, version: true },
  });
  const numberOf = Object.fromEntries(numbers.map((n) => [n.id, n.version]));
  return rows.map(({ validators, proofs, ...r }) => ({
    ...r,
    currentValidatorVersionIds: validators.flatMap((v) => (v.currentVersionId ? [v.currentVersionId] : [])),
    validatorVersionNumbers: numberOf,
    proofs: proofs.map(proofRowOf),
  }));
}

export async function loadDatasetPlan(tx: Tx, input: Input): Promise<DatasetPlan> {
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
export function overrideReasonOf(input: Input): string | null {
  if (input.overrideReason) return input.overrideReason;
  return input.allowUnverified ? "allowed unverified items (--allow-unverified)" : null;
}
