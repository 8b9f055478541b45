import "server-only";
/**
 * Writes a finished step in one transaction: its domain effects (topics, environments, code
 * versions, quality checks), its output and SUCCEEDED status, and the rows of the steps that
 * follow. A crash before the commit leaves nothing half-written; after it, the memo holds.
 */
import type { Db, Prisma } from "@/lib/db";
import { sha256 } from "@/lib/environments/hash";
import {
  ENV_CHAIN,
  type Assembled,
  JudgeOutputSchema,
  QualityOutputSchema,
  type Stage,
  type StateSpace,
} from "../pipeline.schema";
import type { SelectOutput } from "../stages/dedup-topics";
import { createChainStarts } from "./environments";
import type { StepRow } from "./compute-step";
import { CHAIN_SCHEMAS, chainOutputs } from "./step-inputs";

type Tx = Prisma.TransactionClient;
type Run = { id: string; projectId: string };

async function commitSelect(tx: Tx, run: Run, output: SelectOutput) {
  await tx.environmentTopic.deleteMany({ where: { runId: run.id } });
  const envKey = (key: string) => key.replace(/^task:/, "env:");
  const ids = await createChainStarts(
    tx,
    run,
    output.topics.filter((t) => t.kept).map((t) => ({ subjectKey: envKey(t.key), topic: t.topic })),
  );
  await tx.environmentTopic.createMany({
    data: output.topics.map((t) => ({
      runId: run.id,
      sourceTask: t.topic.task,
      summary: t.topic.summary,
      introduction: t.topic.introduction,
      usefulness: t.topic.usefulness,
      modelability: t.topic.modelability,
      clusterKey: t.clusterKey,
      kept: t.kept,
      environmentId: (t.kept && ids.get(envKey(t.key))) || null,
    })),
  });
}

async function commitAssemble(
  tx: Tx,
  step: StepRow,
  output: Assembled,
  state: StateSpace | undefined,
  operations: unknown,
) {
  if (!step.environmentId) return;
  const last = await tx.environmentVersion.findFirst({
    where: { environmentId: step.environmentId },
    orderBy: { version: "desc" },
  });
  const version = await tx.environmentVersion.create({
    data: {
      environmentId: step.environmentId,
      version: (last?.version ?? 0) + 1,
      className: output.className,
      source: output.source,
      sourceHash: sha256(output.source),
      tools: output.tools as Prisma.InputJsonValue,
      stateSchema: state?.entities ?? [],
      rules: state?.rules ?? [],
      operations: operations ?? [],
      producedBy: "pipeline",
      runId: step.runId,
      parentVersionId: last?.id ?? null,
      message: `SkelBuilder run ${step.runId}`,
    },
  });
  await tx.environment.update({
    where: { id: step.environmentId },
    data: { currentVersionId: version.id, toolCount: output.tools.length, status: "CHECKING" },
  });
}

async function commitQuality(tx: Tx, step: StepRow, output: unknown, initialState: unknown) {
  const q = QualityOutputSchema.parse(output);
  const env = step.environmentId
    ? await tx.environment.findUnique({ where: { id: step.environmentId } })
    : null;
  if (!env?.currentVersionId) return;
  const check = await tx.qualityCheck.create({
    data: {
      environmentVersionId: env.currentVersionId,
      runId: step.runId,
      testState: initialState ?? {},
      rounds: q.rounds,
      passCount: q.passCount,
      warningCount: q.warningCount,
      failCount: q.failCount,
      passRate: q.passRate,
      notFailRate: q.notFailRate,
      threshold: q.threshold,
      passed: q.passed,
    },
  });
  await tx.qualityProbe.createMany({
    data: q.probes.map((p, i) => ({
      qualityCheckId: check.id,
      index: i,
      kind: p.kind,
      toolName: p.toolName,
      arguments: p.arguments as Prisma.InputJsonValue,
      observation: (p.observation ?? null) as Prisma.InputJsonValue,
      stateDiff: (p.stateDiff ?? null) as Prisma.InputJsonValue,
      verdict: p.verdict,
      rationale: p.rationale,
    })),
  });
  // Passing environments go to human review, never straight to ACCEPTED.
  await tx.environment.update({ where: { id: env.id }, data: { status: q.passed ? "IN_REVIEW" : "FAILED" } });
}

/** The chain's next step, if this stage has one. */
export const nextChainStage = (stage: string): Stage | undefined => {
  const at = ENV_CHAIN.indexOf(stage as Stage);
  return at >= 0 ? ENV_CHAIN[at + 1] : undefined;
};

async function createNext(tx: Tx, step: StepRow, output: unknown) {
  if (step.stage === "judge" && JudgeOutputSchema.parse(output).stateful) {
    await tx.pipelineStep.createMany({
      data: [
        {
          runId: step.runId,
          subjectKey: step.subjectKey,
          stage: "topic",
          input: step.input as Prisma.InputJsonValue,
        },
      ],
      skipDuplicates: true,
    });
  }
  const next = nextChainStage(step.stage);
  if (next) {
    await tx.pipelineStep.createMany({
      data: [
        {
          runId: step.runId,
          subjectKey: step.subjectKey,
          stage: next,
          environmentId: step.environmentId,
          input: step.input as Prisma.InputJsonValue,
        },
      ],
      skipDuplicates: true,
    });
  }
}

/** Only these stages' commits read earlier outputs (one query less for the others). */
const READS_EARLIER = new Set(["assemble", "quality"]);

export async function commitStep(db: Db, run: Run, step: StepRow, output: unknown, startedAt: Date) {
  const earlier = READS_EARLIER.has(step.stage)
    ? await chainOutputs(db, step.runId, step.subjectKey)
    : new Map<string, unknown>();
  await db.$transaction(async (tx) => {
    if (step.stage === "select") await commitSelect(tx, run, output as SelectOutput);
    if (step.stage === "assemble") {
      const state = CHAIN_SCHEMAS.state.safeParse(earlier.get("state"));
      await commitAssemble(
        tx,
        step,
        output as Assembled,
        state.success ? state.data : undefined,
        CHAIN_SCHEMAS.operations.safeParse(earlier.get("operations")).data?.operations,
      );
    }
    if (step.stage === "quality")
      await commitQuality(
        tx,
        step,
        output,
        CHAIN_SCHEMAS.test_state.safeParse(earlier.get("test_state")).data?.initialState,
      );
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
    await createNext(tx, step, output);
  });
}
