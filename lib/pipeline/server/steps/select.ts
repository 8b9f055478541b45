import "server-only";
/**
 * Select: the run's topics, filtered by score and merged when near-duplicate. The commit records
 * every topic and starts one environment chain per kept topic.
 */
import { TopicSchema } from "../../pipeline.schema";
import { type SelectOutput, selectTopics } from "../../stages/dedup-topics";
import { createChainStarts } from "../environments";
import { type CommitContext, type ComputeContext, defineStage } from "../stage-spec";

async function computeSelect({ db, step, config, deps }: ComputeContext) {
  const rows = await db.pipelineStep.findMany({
    where: { runId: step.runId, stage: "topic", status: "SUCCEEDED" },
    orderBy: { subjectKey: "asc" },
  });
  const topics = rows.flatMap((r) => {
    const t = TopicSchema.safeParse(r.output);
    return t.success ? [{ key: r.subjectKey, topic: t.data }] : [];
  });
  return selectTopics(
    {
      topics,
      minUsefulness: config.minUsefulness,
      minModelability: config.minModelability,
      dedupThreshold: config.dedupThreshold,
      embeddingDedupThreshold: config.embeddingDedupThreshold,
    },
    deps,
  );
}

async function commitSelect({ tx, run }: CommitContext, output: unknown) {
  const selected = output as SelectOutput;
  await tx.environmentTopic.deleteMany({ where: { runId: run.id } });
  const envKey = (key: string) => key.replace(/^task:/, "env:");
  const ids = await createChainStarts(
    tx,
    run,
    selected.topics.filter((t) => t.kept).map((t) => ({ subjectKey: envKey(t.key), topic: t.topic })),
  );
  await tx.environmentTopic.createMany({
    data: selected.topics.map((t) => ({
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

export const selectStep = defineStage({ compute: computeSelect, commit: commitSelect });
