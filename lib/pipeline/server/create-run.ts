import "server-only";
/**
 * Starts a SkelBuilder run: the run row (config snapshot, budgets), the first steps (a judge step
 * per task, or an environment chain per typed idea) and their jobs. Used by the studio's action,
 * the CLI and the benchmark alike. A run with a cost budget on a model without a price is refused
 * before anything is written or enqueued.
 */
import type { JobQueue } from "@/lib/jobs/server/send-job";
import type { Db } from "@/lib/db";
import { getLlmConfig } from "@/lib/llm";
import { type RunConfig, RunConfigSchema, type RunInput, RunInputSchema } from "../pipeline.schema";
import { checkRunPrices } from "../run-config";
import { runName } from "../naming";
import { topicFromIdea } from "../stages/infer-topic";
import { enqueueSteps } from "./advance-run";
import { createChainStarts } from "./environments";

export type CreateRunInput = {
  projectId: string;
  name?: string;
  input: RunInput;
  config: RunConfig;
  createdById?: string | null;
};

export async function createRun(db: Db, queue: JobQueue, request: CreateRunInput) {
  const input = RunInputSchema.parse(request.input);
  const config = RunConfigSchema.parse(request.config);
  checkRunPrices(config, getLlmConfig().prices);
  const label = request.name?.trim() || runName(input);
  const run = await db.$transaction(async (tx) => {
    const created = await tx.pipelineRun.create({
      data: {
        projectId: request.projectId,
        kind: "SKEL_BUILDER",
        name: label,
        config: config,
        input: input,
        createdById: request.createdById ?? null,
        maxTokens: config.maxTokens,
        maxCostUsd: config.maxCostUsd,
      },
    });
    if (input.kind === "ideas") {
      await createChainStarts(
        tx,
        created,
        input.ideas.map((idea, i) => ({
          subjectKey: `env:${String(i).padStart(4, "0")}`,
          topic: topicFromIdea(idea),
        })),
      );
    } else {
      await tx.pipelineStep.createMany({
        data: input.tasks.map((task, i) => ({
          runId: created.id,
          subjectKey: `task:${String(i).padStart(5, "0")}`,
          stage: "judge",
          input: { task },
        })),
      });
    }
    return created;
  });
  const first = await db.pipelineStep.findMany({
    where: { runId: run.id },
    select: { runId: true, subjectKey: true, stage: true },
    orderBy: { subjectKey: "asc" },
  });
  await enqueueSteps(queue, first);
  return run;
}
