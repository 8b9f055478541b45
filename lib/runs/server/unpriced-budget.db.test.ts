/**
 * A run with a cost budget on a model without a price would count that model's calls as $0 and
 * never stop: it is refused before anything is written or enqueued, for every run kind that takes a
 * cost budget (SkelBuilder runs, rollouts). With a price configured it starts, the price in its
 * snapshot; without a budget an unpriced model starts (its calls are flagged, see cost-accounting).
 */
import { describe, expect, it } from "vitest";
import type { JobQueue, JobSender } from "@/lib/jobs/server/send-job";
import { buildRunConfig } from "@/lib/pipeline/run-config";
import { createRun } from "@/lib/pipeline/server/create-run";
import { enqueueRolloutRun } from "@/lib/rollout/server/rollout-run";
import { createTestProject } from "@/prisma/seed/factories";
import { useTestDatabase } from "@/tests/db";

const t = useTestDatabase();
const GPT_4O = { input: 2.5, output: 10 };

function recordingQueue() {
  const sent: { job: string; key: string }[] = [];
  const send: JobSender = (def, _payload, key) => (sent.push({ job: def.name, key }), Promise.resolve(key));
  const queue: JobQueue = {
    send,
    sendMany: (def, jobs) =>
      Promise.resolve(void sent.push(...jobs.map((j) => ({ job: def.name, key: j.key })))),
  };
  return { sent, send, queue };
}

const refusal = (models: string): unknown =>
  expect.objectContaining({
    code: "INVALID_INPUT",
    message: expect.stringContaining(
      `A cost budget needs a price for every model the run uses; ${models}`,
    ) as unknown,
  });

/** Defaults priced by the built-in table (gpt-4.1, gpt-4.1-mini), the code stage on `code`. */
const skelConfig = (code: string, extra: Parameters<typeof buildRunConfig>[1] = {}) =>
  buildRunConfig(
    { defaultModel: "gpt-4.1", checkModel: "gpt-4.1-mini", embeddingModel: null },
    { models: { code }, ...extra },
  );

describe("a cost budget needs a price for every model", () => {
  it("SkelBuilder: refused with no run and no job on gpt-4o; starts once gpt-4o has a price", async () => {
    const project = await createTestProject(t.db);
    const { sent, queue } = recordingQueue();
    const input = { kind: "ideas" as const, ideas: ["A library lending desk"] };
    await expect(
      createRun(t.db, queue, {
        projectId: project.id,
        input,
        config: skelConfig("gpt-4o", { maxCostUsd: 2 }),
      }),
    ).rejects.toEqual(refusal("gpt-4o has none, so its calls would count as $0 and the budget of $2"));
    expect(await t.db.pipelineRun.count({ where: { projectId: project.id } })).toBe(0);
    expect(sent).toEqual([]);

    const priced = skelConfig("gpt-4o", { maxCostUsd: 2, prices: { "gpt-4o": GPT_4O } });
    const run = await createRun(t.db, queue, { projectId: project.id, input, config: priced });
    expect(Number(run.maxCostUsd)).toBe(2);
    expect(sent).toEqual([expect.objectContaining({ job: "pipeline.step" })]);
    // Without a budget nothing is refused.
    await createRun(t.db, queue, { projectId: project.id, input, config: skelConfig("o3") });
    expect(await t.db.pipelineRun.count({ where: { projectId: project.id } })).toBe(2);
  });

  it("rollouts: refused with no run and no job when an agent or the user model has no price", async () => {
    const project = await createTestProject(t.db);
    const { sent, send } = recordingQueue();
    const base = { projectId: project.id, scenarioIds: ["scenario-1"], maxCostUsd: 1 };
    await expect(
      enqueueRolloutRun(t.db, send, { ...base, config: { models: ["gpt-4.1", "gpt-5"] } }),
    ).rejects.toEqual(refusal("gpt-5 has none"));
    await expect(
      enqueueRolloutRun(t.db, send, {
        ...base,
        config: { models: ["gpt-4.1"], mode: "conversational", userModel: "claude-sonnet-4" },
      }),
    ).rejects.toEqual(refusal("claude-sonnet-4 has none"));
    expect(await t.db.pipelineRun.count({ where: { projectId: project.id } })).toBe(0);
    expect(sent).toEqual([]);

    const run = await enqueueRolloutRun(t.db, send, {
      ...base,
      config: { models: ["gpt-4o"], prices: { "gpt-4o": GPT_4O } },
    });
    // The run's prices are a snapshot: the configured table and the one given for the run.
    expect((run.config as { prices: Record<string, unknown> }).prices).toMatchObject({
      "gpt-4o": GPT_4O,
      "gpt-4.1": { input: 2, output: 8 },
    });
    expect(sent).toEqual([{ job: "rollout.run", key: `run:${run.id}` }]);
  });
});
