import "server-only";
/**
 * What the environment page's buttons do: create a run row and enqueue its job (never the work
 * itself). Generation needs an accepted environment with code; rollouts need scenarios (by default
 * only proven ones — an unproven validator's reward means little).
 */
import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";
import type { JobSender } from "@/lib/jobs/server/send-job";
import { readLlmConfig } from "@/lib/llm";
import { enqueueRolloutRun } from "@/lib/rollout/server/rollout-run";
import type { LaunchGeneration, LaunchRollouts } from "../scenario-launch.schema";
import { enqueueGenerationRun } from "./generation-run";
import { enqueueProofRun } from "./proof-run";

type Actor = { id: string | null };

async function environmentOrThrow(db: Db, projectId: string, environmentId: string) {
  const env = await db.environment.findFirst({ where: { projectId, id: environmentId } });
  if (!env) throw new AppError("NOT_FOUND", `Environment "${environmentId}" was not found.`);
  return env;
}

export async function launchScenarioGeneration(
  db: Db,
  send: JobSender,
  projectId: string,
  input: LaunchGeneration,
  actor: Actor,
) {
  const env = await environmentOrThrow(db, projectId, input.environmentId);
  if (env.status !== "ACCEPTED" || !env.currentVersionId)
    throw new AppError(
      "CONFLICT",
      "Scenarios are generated for accepted environments with code; accept this environment first.",
    );
  const llm = readLlmConfig();
  const run = await enqueueGenerationRun(db, send, {
    projectId,
    environmentId: env.id,
    environmentVersionId: env.currentVersionId,
    config: {
      count: input.count,
      model: input.model ?? llm.defaultModel,
      goldModel: llm.baseUrl ? llm.defaultModel : null,
    },
    createdById: actor.id,
  });
  return { runId: run.id };
}

export async function launchRollouts(
  db: Db,
  send: JobSender,
  projectId: string,
  input: LaunchRollouts,
  actor: Actor,
) {
  const env = await environmentOrThrow(db, projectId, input.environmentId);
  const scenarios = await db.scenario.findMany({
    where: {
      environmentId: env.id,
      status: { not: "REJECTED" },
      ...(input.verifiedOnly ? { proofStatus: "VERIFIED" } : {}),
    },
    select: { id: true },
    orderBy: { createdAt: "asc" },
  });
  if (scenarios.length === 0)
    throw new AppError(
      "CONFLICT",
      input.verifiedOnly
        ? "No verified scenarios yet: run the validator proof first, or include unverified scenarios."
        : "This environment has no scenarios yet.",
    );
  const run = await enqueueRolloutRun(db, send, {
    projectId,
    scenarioIds: scenarios.map((s) => s.id),
    environmentId: env.id,
    config: { models: input.models, k: input.k, mode: input.mode, userModel: input.userModel },
    createdById: actor.id,
  });
  return { runId: run.id };
}

export async function launchProof(
  db: Db,
  send: JobSender,
  projectId: string,
  environmentId: string,
  actor: Actor,
) {
  const env = await environmentOrThrow(db, projectId, environmentId);
  const scenarios = await db.scenario.findMany({
    where: { environmentId: env.id, status: { not: "REJECTED" } },
    select: { id: true },
  });
  if (scenarios.length === 0) throw new AppError("CONFLICT", "This environment has no scenarios to prove.");
  const llm = readLlmConfig();
  const run = await enqueueProofRun(db, send, {
    projectId,
    scenarioIds: scenarios.map((s) => s.id),
    environmentId: env.id,
    config: { goldModel: llm.baseUrl ? llm.defaultModel : null },
    createdById: actor.id,
    reason: "requested",
  });
  return { runId: run.id };
}

/** The latest runs launched from an environment page (all kinds), newest first. */
export async function findEnvironmentRuns(db: Db, environmentId: string, take = 5) {
  return db.pipelineRun.findMany({
    where: { input: { path: ["environmentId"], equals: environmentId } },
    orderBy: { createdAt: "desc" },
    take,
    select: { id: true, kind: true, status: true, name: true, createdAt: true },
  });
}
