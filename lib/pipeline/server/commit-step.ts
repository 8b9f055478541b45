import "server-only";
/**
 * Writes a finished step in one transaction: its stage's domain effects (the `commit` of its
 * STAGE_TABLE entry), its output and SUCCEEDED status, and the rows of the steps that follow. A
 * crash before the commit leaves nothing half-written; after it, the memo holds.
 */
import type { Db, Prisma } from "@/lib/db";
import { type Stage, nextChainStage } from "../pipeline.schema";
import type { StepRow, Tx } from "./stage-spec";
import { stageSpecOf } from "./stage-table";
import { chainOutputs } from "./step-inputs";

type Run = { id: string; projectId: string };

/** Creates a following step (a duplicate of an existing one is a no-op). */
async function createStep(tx: Tx, step: StepRow, stage: Stage, environmentId?: string | null) {
  await tx.pipelineStep.createMany({
    data: [
      {
        runId: step.runId,
        subjectKey: step.subjectKey,
        stage,
        environmentId,
        input: step.input as Prisma.InputJsonValue,
      },
    ],
    skipDuplicates: true,
  });
}

export async function commitStep(db: Db, run: Run, step: StepRow, output: unknown, startedAt: Date) {
  const spec = stageSpecOf(step.stage);
  const earlier = spec?.commitReadsEarlier
    ? await chainOutputs(db, step.runId, step.subjectKey)
    : new Map<string, unknown>();
  await db.$transaction(async (tx) => {
    await spec?.commit?.({ tx, run, step, earlier }, output);
    await tx.pipelineStep.update({
      where: { id: step.id },
      data: {
        status: "SUCCEEDED",
        output: output as Prisma.InputJsonValue,
        errorCode: null,
        errorMessage: null,
        retryable: null,
        finishedAt: new Date(),
        durationMs: Date.now() - startedAt.getTime(),
      },
    });
    const follow = spec?.follow?.(output);
    if (follow) await createStep(tx, step, follow);
    const next = nextChainStage(step.stage);
    // Chain steps carry their environment.
    if (next) await createStep(tx, step, next, step.environmentId);
  });
}
