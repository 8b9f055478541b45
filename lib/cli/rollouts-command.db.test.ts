/**
 * `envstudio rollouts` through `main`, against a per-file test database, the scripted endpoint
 * (its GET /v1/models lists gpt-4.1, gpt-4.1-mini and test-model) and the product's sandbox in an
 * in-process worker: bad input starts nothing; a run rolls out k per scenario per model
 * (non-conversational: the task is the first user message), follows to the end and prints the
 * dataset's difficulty.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatasetVersion } from "@/lib/datasets/server/create-dataset-version";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { loadSamples } from "@/prisma/seed/load-samples";
import { seedSamples } from "@/prisma/seed/seed-samples";
import { useTestDatabase } from "@/tests/db";
import { isAgent } from "@/tests/fake-openai/rollout-script";
import { type FakeOpenAi, startFakeOpenAi } from "@/tests/fake-openai/server";
import { useFakeEndpoint } from "@/tests/pipeline-harness";
import { main } from "./main";

const t = useTestDatabase();
let fake: FakeOpenAi;

beforeAll(async () => {
  // The agent answers at once without calling a tool: a real episode, graded by the real checks.
  fake = await startFakeOpenAi({
    script: (body) => (isAgent(body) ? { content: "Task Completed" } : { content: "ok" }),
  });
  useFakeEndpoint(fake.url);
  process.env.DATABASE_URL = t.url;
  const project = await getDefaultProject(t.db);
  await seedSamples(t.db, {
    projectId: project.id,
    samples: [loadSamples()[0]!],
    toolsFor: () => Promise.resolve([]),
  });
  await createDatasetVersion(t.db, { projectId: project.id, name: "ro", allowUnverified: true });
});
afterAll(() => fake?.close());

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(["rollouts", ...argv], { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("envstudio rollouts", () => {
  it("refuses k ≤ 0, k above ROLLOUT_MAX_K, an unknown model and a missing dataset; starts nothing", async () => {
    expect(await cli("--dataset", "ro", "--k", "0")).toMatchObject({
      code: 2,
      err: expect.stringContaining(
        "--k must be a whole number from 1 to 32 (ROLLOUT_MAX_K) (got 0)",
      ) as unknown,
    });
    expect(await cli("--dataset", "ro", "--k", "33")).toMatchObject({ code: 2 });
    expect(await cli("--dataset", "ro")).toMatchObject({
      code: 2,
      err: expect.stringContaining("missing --k") as unknown,
    });
    expect(await cli("--dataset", "ro", "--k", "2", "--models", "gpt-4.1,gpt-9")).toMatchObject({
      code: 1,
      err: expect.stringContaining(
        "unknown model gpt-9: the endpoint lists gpt-4.1, gpt-4.1-mini, test-model",
      ) as unknown,
    });
    expect(await cli("--dataset", "nope", "--k", "1")).toMatchObject({
      code: 1,
      err: expect.stringContaining('Dataset "nope" was not found') as unknown,
    });
    expect(await t.db.pipelineRun.count({ where: { kind: "ROLLOUT" } })).toBe(0);
    expect(fake.chatRequests()).toHaveLength(0);
  });

  it("rolls out k per scenario per model non-conversationally, follows the run and prints the difficulty", async () => {
    const items = await t.db.datasetItem.count();
    const result = await cli("--dataset", "ro", "--k", "2", "--models", "gpt-4.1,test-model");
    expect(result.err).not.toMatch(/error|failed/i); // only the unpriced-models warning
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/run \S+ started \(Rollouts: \d+ scenarios × 2 model\(s\) × 2\)/);
    expect(result.out).toContain(
      `difficulty (rollouts on the items' pins): ${items}/${items} scenarios measured, ${items * 4} rollouts`,
    );
    expect(result.out).toMatch(/ {2}gpt-4\.1: \d+ rollouts, success rate/);
    expect(result.out).toMatch(/ {2}test-model: \d+ rollouts/);
    const run = await t.db.pipelineRun.findFirstOrThrow({ where: { kind: "ROLLOUT" } });
    expect(run.status).toBe("SUCCEEDED");
    expect(run.config).toMatchObject({ mode: "non_conversational", k: 2, models: ["gpt-4.1", "test-model"] });
    expect(await t.db.trajectory.count({ where: { runId: run.id } })).toBe(items * 4);
    // Non-conversational: no user simulator; the agent's first user message is the task.
    const first = fake.chatRequests()[0]?.body as { messages: { role: string; content: string }[] };
    const task = await t.db.scenario.findFirstOrThrow({ where: { task: first.messages[1]?.content } });
    expect(task).toBeTruthy();
  });
});
