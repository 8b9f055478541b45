import "server-only";
/**
 * Which items a repair covers: one scenario, every failing scenario of an environment (by its
 * env_id slug, as `dataset create --env` takes it), or the failing scenarios of a dataset
 * version's environments (those it excluded for a failed proof, and any it holds by override) and
 * the weak validators the version holds. Failing means: the proof of exactly its current versions
 * FAILED; weak: that proof VERIFIED but a near-miss earned full reward. An environment (and each
 * environment of a dataset version) whose current code failed quality probes is an item too: its
 * code is repaired. Nothing here spends anything, so bad input is refused before any LLM request.
 */
import { AppError } from "@/lib/core/errors";
import type { Db, Prisma } from "@/lib/db";
import { getDatasetVersionOrThrow } from "@/lib/datasets/server/find-datasets";
import { pinnedProofStatus, proofRowOf } from "@/lib/scenarios/proof-status";
import { findWeakValidators } from "@/lib/scenarios/server/find-weak-validators";
import { failingQualityEnvironments } from "./propose-environment-repair";
import { repairRefusal } from "./propose-repair";

export type RepairTarget =
  | { kind: "scenario"; scenarioId: string }
  | { kind: "environment"; slug: string }
  | { kind: "dataset"; name: string; version?: number };

export type RepairSelection = {
  label: string;
  scenarioIds: string[];
  /** Environments whose current code failed quality probes (a code repair each). */
  environmentIds: string[];
  environmentId?: string;
  datasetVersionId?: string;
};

/** Scenarios (not rejected) whose current versions' proof FAILED, oldest first. */
async function failingScenarios(db: Db, where: Prisma.ScenarioWhereInput): Promise<string[]> {
  const rows = await db.scenario.findMany({
    where: { ...where, status: { not: "REJECTED" } },
    orderBy: { createdAt: "asc" },
    select: {
      id: true,
      environment: { select: { currentVersionId: true } },
      validators: { orderBy: { position: "asc" }, select: { currentVersionId: true } },
      proofs: {
        orderBy: { createdAt: "desc" },
        select: { environmentVersionId: true, validatorVersionIds: true, status: true },
      },
    },
  });
  return rows
    .filter((s) => {
      const pins = {
        environmentVersionId: s.environment.currentVersionId ?? "",
        validatorVersionIds: s.validators.flatMap((v) => (v.currentVersionId ? [v.currentVersionId] : [])),
      };
      return pinnedProofStatus(s.proofs.map(proofRowOf), pins) === "FAILED";
    })
    .map((s) => s.id);
}

/** What an empty selection says (the CLI prints it, the button refuses with it). */
export const nothingFailing = (label: string) =>
  `no item of ${label} is failing or a weak validator, and no quality probe of its code failed`;

/** Failing first, then the weak ones, each once. */
const union = (failing: string[], weak: string[]) => [...new Set([...failing, ...weak])];

export async function selectRepairItems(
  db: Db,
  projectId: string,
  target: RepairTarget,
): Promise<RepairSelection> {
  if (target.kind === "scenario") {
    const scenario = await db.scenario.findFirst({
      where: { id: target.scenarioId, environment: { projectId } },
      select: { id: true, externalId: true, environmentId: true },
    });
    if (!scenario)
      throw new AppError("NOT_FOUND", `There is no scenario with the id "${target.scenarioId}".`);
    const refusal = await repairRefusal(db, scenario.id);
    if (refusal)
      throw new AppError("CONFLICT", `Scenario ${scenario.externalId} cannot be repaired: ${refusal}.`);
    return {
      label: `scenario ${scenario.externalId}`,
      scenarioIds: [scenario.id],
      environmentIds: [],
      environmentId: scenario.environmentId,
    };
  }
  if (target.kind === "environment") {
    const env = await db.environment.findUnique({
      where: { projectId_slug: { projectId, slug: target.slug } },
      select: { id: true, slug: true },
    });
    if (!env) throw new AppError("NOT_FOUND", `There is no environment with the env_id "${target.slug}".`);
    const weak = await findWeakValidators(db, { projectId, environmentId: env.id });
    return {
      label: `environment ${env.slug}`,
      scenarioIds: union(
        await failingScenarios(db, { environmentId: env.id }),
        weak.map((w) => w.scenarioId),
      ),
      environmentIds: await failingQualityEnvironments(db, { id: env.id }),
      environmentId: env.id,
    };
  }
  const { dataset, version } = await getDatasetVersionOrThrow(db, projectId, target.name, target.version);
  const envs = await db.datasetItem.findMany({
    where: { datasetVersionId: version.id },
    distinct: ["environmentVersionId"],
    select: { environmentVersion: { select: { environmentId: true } } },
  });
  const environmentIds = [...new Set(envs.map((e) => e.environmentVersion.environmentId))];
  const held = await db.datasetItem.findMany({
    where: { datasetVersionId: version.id },
    select: { scenarioId: true },
  });
  const weak = held.length
    ? await findWeakValidators(db, { projectId, scenarioIds: held.map((h) => h.scenarioId) })
    : [];
  return {
    label: `dataset ${dataset.name} v${version.version}`,
    scenarioIds: union(
      await failingScenarios(db, { environmentId: { in: environmentIds } }),
      weak.map((w) => w.scenarioId),
    ),
    environmentIds: await failingQualityEnvironments(db, { id: { in: environmentIds } }),
    datasetVersionId: version.id,
  };
}
