import "server-only";
/**
 * What the "Repair failing items" buttons do (environment, its quality page, dataset version, run pages): pick the
 * failing items of the page's subject and enqueue a REPAIR run for them, or refuse (nothing
 * failing, no endpoint, a bad budget) before anything is written.
 */
import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";
import type { JobSender } from "@/lib/jobs/server/send-job";
import { readLlmConfig } from "@/lib/llm";
import type { LaunchRepair } from "../repair-launch.schema";
import { failingQualityEnvironments } from "./propose-environment-repair";
import { enqueueRepairRun } from "./repair-run";
import { type RepairSelection, nothingFailing, selectRepairItems } from "./select-repair-items";

async function selectionOf(
  db: Db,
  projectId: string,
  target: LaunchRepair["target"],
): Promise<RepairSelection> {
  if (target.kind === "environment") {
    const env = await db.environment.findFirst({
      where: { id: target.id, projectId },
      select: { slug: true },
    });
    if (!env) throw new AppError("NOT_FOUND", `Environment "${target.id}" was not found.`);
    return selectRepairItems(db, projectId, { kind: "environment", slug: env.slug });
  }
  if (target.kind === "datasetVersion") {
    const version = await db.datasetVersion.findFirst({
      where: { id: target.id, dataset: { projectId } },
      select: { version: true, dataset: { select: { name: true } } },
    });
    if (!version) throw new AppError("NOT_FOUND", `Dataset version "${target.id}" was not found.`);
    return selectRepairItems(db, projectId, {
      kind: "dataset",
      name: version.dataset.name,
      version: version.version,
    });
  }
  const run = await db.pipelineRun.findFirst({
    where: { id: target.id, projectId },
    select: { input: true },
  });
  if (!run) throw new AppError("NOT_FOUND", `Run "${target.id}" was not found.`);
  const input = run.input as { scenarioIds?: unknown };
  const ids = Array.isArray(input.scenarioIds)
    ? input.scenarioIds.filter((x): x is string => typeof x === "string")
    : [];
  const failing: string[] = [];
  for (const scenarioId of ids) {
    const picked = await selectRepairItems(db, projectId, { kind: "scenario", scenarioId }).catch(() => null);
    if (picked) failing.push(scenarioId);
  }
  // A generation run's environments whose quality probes failed get their code repaired.
  const environmentIds = await failingQualityEnvironments(db, { runId: target.id, projectId });
  return { label: `run ${target.id}`, scenarioIds: failing, environmentIds };
}

export async function launchRepair(
  db: Db,
  send: JobSender,
  projectId: string,
  input: LaunchRepair,
  actor: { id: string | null },
) {
  const llm = readLlmConfig();
  if (!llm.baseUrl)
    throw new AppError(
      "CONFLICT",
      "No LLM endpoint is configured (OPENAI_BASE_URL): a repair needs a model.",
    );
  const picked = await selectionOf(db, projectId, input.target);
  if (picked.scenarioIds.length + picked.environmentIds.length === 0)
    throw new AppError("CONFLICT", `Nothing to repair: ${nothingFailing(picked.label)}.`);
  const run = await enqueueRepairRun(db, send, {
    projectId,
    scenarioIds: picked.scenarioIds,
    environmentIds: picked.environmentIds,
    environmentId: picked.environmentId,
    datasetVersionId: picked.datasetVersionId,
    config: { model: input.model ?? llm.defaultModel },
    maxCostUsd: input.maxCostUsd ?? null,
    createdById: actor.id,
    label: picked.label,
  });
  return { runId: run.id };
}
