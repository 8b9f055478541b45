import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningWorker } from "@/lib/jobs/worker";
import { createSandboxRunner } from "@/lib/sandbox";
import { createTestProject } from "@/prisma/seed/factories";
import { useTestDatabase } from "@/tests/db";
import { createPipelineScript, withFaults } from "@/tests/fake-openai/pipeline-script";
import { loadSampleEnv } from "@/tests/fake-openai/sample-env";
import { type FakeOpenAi, promptText, startFakeOpenAi } from "@/tests/fake-openai/server";
import { startPipelineWorker, testRunConfig, useFakeEndpoint, waitForRun } from "@/tests/pipeline-harness";
import { cancelRun, rerunStep } from "./control-run";
import { createRun } from "./create-run";

const t = useTestDatabase();
const library = loadSampleEnv("library-lending", {
  operations: ["get_member", "list_member_loans", "renew_loan", "pay_fines"],
});
const clinic = loadSampleEnv("clinic-scheduling");
const script = createPipelineScript([library], { statelessWord: "weather", lowScoreWord: "vague" });
let fake: FakeOpenAi;
let worker: RunningWorker;

beforeAll(async () => {
  fake = await startFakeOpenAi({ script });
  useFakeEndpoint(fake.url);
  worker = await startPipelineWorker(t.db, t.url);
});
afterAll(async () => {
  await worker?.stop();
  await fake?.close();
});

describe("SkelBuilder runs on the job worker", () => {
  it("goes from a task file to a checked environment with working tools, then re-runs from the cache", async () => {
    const project = await createTestProject(t.db);
    const tasks = [
      "Renew loan L004 for member M001 at the library desk",
      "Member M002 wants to pay her library fines",
      "What's the weather in Paris?",
      "Something vague about books",
    ];
    const run = await createRun(t.db, worker.queue, {
      projectId: project.id,
      input: { kind: "tasks", tasks },
      config: testRunConfig(),
    });
    const done = await waitForRun(t.db, run.id);
    expect(done.run.status).toBe("SUCCEEDED");
    expect(done.failures).toEqual([]);
    // Two library tasks become one topic cluster; the weather task is not stateful; the vague one scores too low.
    expect(done.topics.map((x) => [x.kept, x.usefulness])).toEqual(
      expect.arrayContaining([
        [true, 8],
        [false, 8],
        [false, 3],
      ]),
    );
    expect(done.topics.filter((x) => x.clusterKey).length).toBe(2);
    expect(done.environments).toHaveLength(1);
    const env = await t.db.environment.findUniqueOrThrow({
      where: { id: done.environments[0]!.id },
      include: { currentVersion: { include: { qualityChecks: { include: { probes: true } } } } },
    });
    expect(env.status).toBe("IN_REVIEW");
    expect(env.toolCount).toBe(4);
    const check = env.currentVersion!.qualityChecks[0]!;
    expect(check).toMatchObject({ rounds: 4, passed: true });
    expect(check.probes).toHaveLength(4);
    const calls = await t.db.llmCall.count({ where: { runId: run.id } });
    expect(calls).toBeGreaterThan(10);
    expect(Number(done.run.promptTokens)).toBeGreaterThan(0);

    // The stored environment really works in the sandbox.
    const sandbox = createSandboxRunner();
    const episode = await sandbox.load({
      source: env.currentVersion!.source,
      className: env.currentVersion!.className,
      initialState: library.initialState,
    });
    expect(episode.ok).toBe(true);
    if (episode.ok) {
      const step = await episode.value.step("get_member", { member_id: "M001" });
      expect(step.ok && step.value.observation).toMatchObject({ success: true });
      await episode.value.close();
    }
    await sandbox.close();

    // Re-running a step (and everything after it) pays for nothing: every call is a cache hit.
    const before = fake.chatRequests().length;
    await rerunStep(t.db, worker.queue, {
      runId: run.id,
      subjectKey: "env:00000",
      stage: "state",
      fresh: false,
    });
    const again = await waitForRun(t.db, run.id);
    expect(again.run.status).toBe("SUCCEEDED");
    expect(fake.chatRequests().length).toBe(before);
    const stateStep = await t.db.pipelineStep.findUniqueOrThrow({
      where: { runId_subjectKey_stage: { runId: run.id, subjectKey: "env:00000", stage: "state" } },
      include: { llmCalls: true },
    });
    expect(stateStep.llmCalls.some((c) => c.cached)).toBe(true);
    expect(await t.db.environmentVersion.count({ where: { environmentId: env.id } })).toBe(2);
  });

  it("retries transient faults and records permanent ones, never leaving a run stuck", async () => {
    const project = await createTestProject(t.db);
    const seen = new Map<string, number>();
    const once = (key: string) => {
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      return n === 1;
    };
    fake.setScript(
      withFaults(script, (body, stage) => {
        const text = promptText(body);
        if (text.includes("broken-idea")) {
          if (stage === "state_code") return { content: "I cannot write code today." };
          return null;
        }
        if (stage === "state" && once("429")) return { status: 429, headers: { "retry-after": "1" } };
        if (stage === "operations" && once("500")) return { status: 500 };
        if (stage === "methods" && once("hang")) return { hang: true };
        if (stage === "judge_call" && once("garbled")) return { raw: "{this is not json" };
        return null;
      }),
    );
    const run = await createRun(t.db, worker.queue, {
      projectId: project.id,
      input: { kind: "ideas", ideas: ["A library lending desk", "broken-idea: a lending desk"] },
      config: testRunConfig(),
    });
    const done = await waitForRun(t.db, run.id);
    fake.setScript(script);
    expect(done.run.status).toBe("SUCCEEDED");
    expect(done.run.errorMessage).toBe("1 step failed");
    expect(done.failures).toEqual([
      expect.objectContaining({
        stage: "state_code",
        status: "FAILED",
        errorCode: "PARSE_FAILED",
        retryable: false,
      }),
    ]);
    expect(done.failures[0]!.errorMessage).toMatch(/did not parse after 3 tries/);
    const statuses = done.environments.map((e) => e.status).sort();
    expect(statuses).toEqual(["FAILED", "IN_REVIEW"]);
    // Named like a title, not "2 ideas"; the built one carries the domain its state stage named.
    expect(done.run.name).toBe("Library lending desk and 1 more");
    const built = await t.db.environment.findFirstOrThrow({ where: { runId: run.id, status: "IN_REVIEW" } });
    expect([built.name, built.domain]).toEqual(["Library lending desk", "library services"]);
    expect([...seen.keys()].sort()).toEqual(["429", "500", "garbled", "hang"]);
    const retried = await t.db.llmCall.findFirst({
      where: {
        runId: run.id,
        purpose: "infer state space and rules",
        errorMessage: null,
        attempts: { gt: 1 },
      },
    });
    expect(retried).not.toBeNull();
  });

  it("stops cleanly when the token budget is spent", async () => {
    const project = await createTestProject(t.db);
    const run = await createRun(t.db, worker.queue, {
      projectId: project.id,
      input: { kind: "ideas", ideas: ["Clinic desk one", "Clinic desk two", "Clinic desk three"] },
      config: testRunConfig({ maxTokens: 400 }),
    });
    const done = await waitForRun(t.db, run.id);
    expect(done.run.status).toBe("BUDGET_EXCEEDED");
    expect(done.failures.some((f) => f.errorCode === "BUDGET_EXCEEDED")).toBe(true);
    expect(done.stages.every((s) => s.pending === 0 && s.running === 0)).toBe(true);
    expect(done.run.finishedAt).not.toBeNull();
    void clinic;
  });

  it("cancels a run", async () => {
    const project = await createTestProject(t.db);
    fake.setScript(async (body, i) => {
      await new Promise((r) => setTimeout(r, 300));
      return script(body, i);
    });
    const run = await createRun(t.db, worker.queue, {
      projectId: project.id,
      input: { kind: "ideas", ideas: ["Library one", "Library two"] },
      config: testRunConfig(),
    });
    await new Promise((r) => setTimeout(r, 500));
    await cancelRun(t.db, run.id);
    const done = await waitForRun(t.db, run.id, 30_000);
    fake.setScript(script);
    expect(done.run.status).toBe("CANCELLED");
    expect(done.stages.every((s) => s.pending === 0 && s.running === 0)).toBe(true);
  });
});
