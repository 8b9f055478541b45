/**
 * Kill-and-resume: a real worker process is killed with SIGKILL mid-run, another one is started,
 * and the run finishes with no finished step repeated and no answered LLM request sent again. The
 * requests the endpoint received equal the requests the studio accounts for: answers used plus
 * answers lost (sent by the killed worker, never stored), with the lost ones' estimated cost in the run's.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startBoss } from "@/lib/jobs/boss";
import { canonicalJson } from "@/lib/llm";
import { createTestProject } from "@/prisma/seed/factories";
import { useTestDatabase } from "@/tests/db";
import { createPipelineScript } from "@/tests/fake-openai/pipeline-script";
import { loadSampleEnv } from "@/tests/fake-openai/sample-env";
import { type FakeOpenAi, startFakeOpenAi } from "@/tests/fake-openai/server";
import { testRunConfig, waitForRun } from "@/tests/pipeline-harness";
import { createRun } from "./create-run";
import { jobQueueOn } from "@/lib/jobs/server/send-job";

const t = useTestDatabase();
const PRICES = { "m-main": { input: 3, output: 15 }, "m-check": { input: 1, output: 4 } };
const library = loadSampleEnv("library-lending", {
  operations: ["get_member", "list_member_loans", "renew_loan", "pay_fines"],
});
let fake: FakeOpenAi;
const children: ChildProcess[] = [];
const script = createPipelineScript([library]);
/** While holding, requests wait at the endpoint: the kill then lands with calls surely in flight. */
let holding = false;
const held: (() => void)[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAi({
    script: async (body, i) => {
      if (holding) await new Promise<void>((r) => held.push(r));
      return script(body, i);
    },
    latencyMs: 120,
  });
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  await fake?.close();
});

function spawnWorker(): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "lib/jobs/worker-main.ts"], {
    cwd: process.cwd(),
    env: {
      ...process.env,
      DATABASE_URL: t.url,
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: "test",
      JOBS_SUPERVISE_SECONDS: "2",
      LLM_RETRY_BASE_MS: "10",
      LLM_PRICES: JSON.stringify(PRICES),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.resume();
  child.stderr?.resume();
  children.push(child);
  return child;
}

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

it(
  "resumes after kill -9 without repeating finished steps or answered LLM calls",
  { timeout: 240_000 },
  async () => {
    const project = await createTestProject(t.db);
    const boss = await startBoss(t.url, { supervise: false });
    const run = await createRun(t.db, jobQueueOn(boss), {
      projectId: project.id,
      input: { kind: "ideas", ideas: ["Library desk north", "Library desk south"] },
      config: testRunConfig({ qualityRounds: 6 }),
    });

    const first = spawnWorker();
    // Kill while the quality loops are mid-way: some steps finished, some calls answered but not yet committed.
    await until(
      async () =>
        (await t.db.pipelineStep.count({ where: { runId: run.id, stage: "quality", status: "RUNNING" } })) >
          0 &&
        (await t.db.llmCall.count({ where: { runId: run.id, purpose: { startsWith: "judge" } } })) >= 2,
      120_000,
      "a quality step in progress",
    );
    // Hold new requests at the endpoint until every call the worker recorded as sent has arrived
    // there and every answer it received is stored: then the kill loses exactly the held ones.
    holding = true;
    const pending = () => t.db.llmCall.count({ where: { runId: run.id, status: "PENDING" } });
    await until(
      async () => held.length > 0 && (await pending()) === held.length,
      60_000,
      "calls in flight at the endpoint",
    );
    const inFlightAtKill = held.length;
    first.kill("SIGKILL");
    await new Promise((r) => first.once("exit", r));
    const killedAt = Date.now();
    holding = false;
    held.splice(0).forEach((release) => release());
    const recordedBeforeKill = await t.db.llmCall.count({
      where: { runId: run.id, cached: false, status: { not: "PENDING" } },
    });
    const finishedBefore = await t.db.pipelineStep.findMany({
      where: { runId: run.id, status: "SUCCEEDED" },
      select: { id: true, attempt: true, finishedAt: true },
    });
    expect(finishedBefore.length).toBeGreaterThan(4);

    spawnWorker();
    const done = await waitForRun(t.db, run.id, 180_000);
    await boss.stop({ graceful: false });
    expect(done.run.status).toBe("SUCCEEDED");
    expect(done.environments.map((e) => e.status)).toEqual(["IN_REVIEW", "IN_REVIEW"]);

    // No finished step was repeated.
    const after = await t.db.pipelineStep.findMany({
      where: { id: { in: finishedBefore.map((s) => s.id) } },
      select: { id: true, attempt: true, finishedAt: true },
    });
    expect(after).toEqual(expect.arrayContaining(finishedBefore));
    // Requests sent again after the kill are only those still in flight when it happened (the worker
    // died before it received and cached their answers); everything it had received was a cache hit.
    const sentBefore = fake.chatRequests().filter((r) => r.at < killedAt);
    const sentBeforeKeys = new Set(sentBefore.map((r) => canonicalJson(r.body)));
    const resent = fake
      .chatRequests()
      .filter((r) => r.at > killedAt && sentBeforeKeys.has(canonicalJson(r.body)));
    expect(resent.length).toBeLessThanOrEqual(sentBefore.length - recordedBeforeKill);
    // And the database agrees: at most one paid call per cache key.
    const paid = await t.db.llmCall.groupBy({
      by: ["cacheKey"],
      where: { runId: run.id, cached: false, status: "ACCEPTED" },
      _count: { _all: true },
    });
    expect(paid.filter((p) => p._count._all > 1)).toEqual([]);
    // The interrupted step re-ran and found its earlier calls in the cache.
    expect(await t.db.llmCall.count({ where: { runId: run.id, cached: true } })).toBeGreaterThan(0);

    // Every request the endpoint received is accounted for: answers used + answers lost.
    const llm = done.llm;
    expect(llm).toMatchObject({
      requestsSent: fake.chatRequests().length,
      answersLost: inFlightAtKill,
      answersRejected: 0,
      errorResponses: 0,
      inFlight: 0,
    });
    expect(llm.answersUsed + llm.answersLost).toBe(fake.chatRequests().length);
    // The lost answers were paid for: their estimated cost is part of the run's.
    const lost = await t.db.llmCall.findMany({ where: { runId: run.id, status: "LOST" } });
    expect(lost).toHaveLength(inFlightAtKill);
    expect(lost.every((c) => c.promptTokens > 0 && Number(c.costUsd) > 0)).toBe(true);
    expect(llm.lostCostUsd).toBeCloseTo(
      lost.reduce((s, c) => s + Number(c.costUsd), 0),
      9,
    );
    expect(done.run.costUsd).toBeCloseTo(llm.costUsd, 9);
    expect(llm.lostCostUsd).toBeGreaterThan(0);
  },
);
