/**
 * Beyond one machine, as separate processes against one Postgres: three job workers share a
 * generation run and a rollout run while two environment-server replicas host 32 concurrent
 * episodes; one worker and one replica are killed with SIGKILL mid-way. Checked on the host side:
 * both runs finish with every rollout stored, no LLM answer was paid for twice, the endpoint never
 * had more requests open than the global limit, and every episode ends with the reward it would
 * have had without the kill.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createDatasetVersion } from "@/lib/datasets/server/create-dataset-version";
import { startBoss } from "@/lib/jobs/boss";
import { jobQueueOn } from "@/lib/jobs/server/send-job";
import { createRun } from "@/lib/pipeline/server/create-run";
import { launchDatasetRollouts } from "@/lib/rollout/server/launch-dataset-rollouts";
import { createTestProject } from "@/prisma/seed/factories";
import { loadSamples } from "@/prisma/seed/load-samples";
import { seedSamples } from "@/prisma/seed/seed-samples";
import { useTestDatabase } from "@/tests/db";
import { createPipelineScript } from "@/tests/fake-openai/pipeline-script";
import { isAgent } from "@/tests/fake-openai/rollout-script";
import { loadSampleEnv } from "@/tests/fake-openai/sample-env";
import { FAKE_MODELS, type FakeOpenAi, startFakeOpenAi } from "@/tests/fake-openai/server";
import { testRunConfig, waitForRun } from "@/tests/pipeline-harness";

const t = useTestDatabase();
const GLOBAL_LIMIT = 2;
const EPISODES = 32;
const children: ChildProcess[] = [];
let fake: FakeOpenAi;
const library = loadSampleEnv("library-lending", { operations: ["get_member"] });
const clinic = loadSampleEnv("clinic-scheduling");
const pipeline = createPipelineScript([library, clinic], {
  pick: (text) => (/clinic/i.test(text) ? clinic : library),
});

beforeAll(async () => {
  fake = await startFakeOpenAi({
    // The agent ends at once (no tool call): a real, cheap episode graded by the real checks.
    script: (body, i) => (isAgent(body) ? { content: "Task Completed" } : pipeline(body, i)),
    latencyMs: 80,
  });
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  await fake?.close();
});

function spawnChild(file: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", file], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stderr?.resume();
  children.push(child);
  return child;
}

const worker = () =>
  spawnChild("lib/jobs/worker-main.ts", {
    DATABASE_URL: t.url,
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: "test",
    JOBS_SUPERVISE_SECONDS: "5",
    LLM_RETRY_BASE_MS: "10",
    LLM_CONCURRENCY: String(GLOBAL_LIMIT),
  });

async function replica(): Promise<{ port: number; child: ChildProcess }> {
  const child = spawnChild("tests/child/env-server.ts", {
    JOURNAL_DATABASE_URL: t.url,
    CHILD_MAX_SESSIONS: String(EPISODES),
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const { port } = JSON.parse(String((await lines.next()).value)) as { port: number };
  return { port, child };
}

const killed = (child: ChildProcess) => {
  child.kill("SIGKILL");
  return new Promise((resolve) => child.once("exit", resolve));
};

async function post(port: number, path: string, body: unknown) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status, `${path} on :${port}`).toBe(200);
  return (await res.json()) as {
    observation: { content: unknown; metadata: Record<string, string> };
    reward: number | null;
  };
}
const act = (port: number, e: { id: string; key: string }, tool: string, args: object = {}) =>
  post(port, "/step", {
    action: { tool_name: tool, arguments: args, metadata: {} },
    episode_id: e.id,
    session_key: e.key,
  });

/** The most chat requests the endpoint had open at once; a request of the killed worker ends with it. */
function peakInFlight(killedAt: number): number {
  const events = fake
    .chatRequests()
    .flatMap((r) => [
      { at: r.at, d: 1 },
      { at: r.respondedAt ?? (r.at < killedAt ? killedAt : Number.POSITIVE_INFINITY), d: -1 },
    ])
    .sort((a, b) => a.at - b.at || a.d - b.d);
  let open = 0;
  let peak = 0;
  for (const e of events) peak = Math.max(peak, (open += e.d));
  return peak;
}

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

it("three workers and two replicas lose one of each and lose nothing", { timeout: 300_000 }, async () => {
  const project = await createTestProject(t.db, "scale-out");
  await seedSamples(t.db, {
    projectId: project.id,
    samples: [loadSamples()[0]!],
    toolsFor: () => Promise.resolve([]),
  });
  await createDatasetVersion(t.db, { projectId: project.id, name: "scale", allowUnverified: true });
  const items = await t.db.datasetItem.count();

  const boss = await startBoss(t.url, { supervise: false });
  const queue = jobQueueOn(boss);
  const generation = await createRun(t.db, queue, {
    projectId: project.id,
    input: { kind: "ideas", ideas: ["A library lending desk", "A clinic scheduling desk"] },
    config: testRunConfig({ qualityRounds: 4 }),
  });
  const { run: rollouts } = await launchDatasetRollouts(
    t.db,
    queue.send,
    { projectId: project.id, dataset: "scale", k: 3, models: ["test-model"] },
    () => Promise.resolve(FAKE_MODELS),
  );
  const workers = [worker(), worker(), worker()];
  const [a, b] = await Promise.all([replica(), replica()]);

  // 32 episodes at once, half on each replica: each adds 2 and will later add -1 (the
  // counter's check wants 1, so only a replay of the first call gives reward 1).
  const episodes = await Promise.all(
    Array.from({ length: EPISODES }, async (_, i) => {
      const port = i % 2 ? b.port : a.port;
      const reset = await post(port, "/reset", { scenario_id: "counter/c1" });
      const e = { id: reset.observation.metadata.episode_id!, key: reset.observation.metadata.session_key! };
      await act(port, e, "add", { amount: 2 });
      return e;
    }),
  );

  // Mid-run: some LLM work done, some still to do.
  await until(
    async () => (await t.db.llmCall.count({ where: { status: "ACCEPTED" } })) >= 6,
    120_000,
    "LLM work under way",
  );
  const killedAt = Date.now();
  await Promise.all([killed(workers[0]!), killed(a.child)]);

  // Every episode goes on at the surviving replica.
  const rewards = await Promise.all(
    episodes.map(async (e) => {
      await act(b.port, e, "add", { amount: -1 });
      return (await act(b.port, e, "submit")).reward;
    }),
  );
  expect(rewards).toEqual(Array.from({ length: EPISODES }, () => 1));

  const [gen, roll] = await Promise.all([
    waitForRun(t.db, generation.id, 240_000),
    waitForRun(t.db, rollouts.id, 240_000),
  ]);
  await boss.stop({ graceful: false });
  expect(gen.run.status).toBe("SUCCEEDED");
  expect(roll.run.status).toBe("SUCCEEDED");
  expect(await t.db.trajectory.count({ where: { runId: rollouts.id } })).toBe(items * 3);
  // No answer paid twice, whichever worker ran the step: per step and request (cache key; a
  // rollout's k samples are salted apart) at most one answer was bought and used; a step resumed
  // on another worker found the answers its killed worker had stored in the cache. Every request
  // the endpoint saw is accounted for by a call row.
  const calls = await t.db.llmCall.findMany({
    where: { runId: { in: [generation.id, rollouts.id] }, cached: false },
    select: { runId: true, stepId: true, cacheKey: true, status: true },
  });
  const bought = new Map<string, number>();
  for (const c of calls.filter((c) => c.status === "ACCEPTED")) {
    const key = `${c.stepId} ${c.cacheKey}`;
    bought.set(key, (bought.get(key) ?? 0) + 1);
  }
  expect([...bought].filter(([, n]) => n > 1)).toEqual([]);
  expect(calls.filter((c) => c.status === "PENDING")).toEqual([]);
  // A call row is written, with its attempt counted, just before its request is sent: the killed
  // worker may have written rows whose request never left it (they end LOST, one per slot it held).
  const requests = fake.chatRequests().length;
  const lost = calls.filter((c) => c.status === "LOST").length;
  expect(calls.length).toBeGreaterThanOrEqual(requests);
  expect(calls.length - requests).toBeLessThanOrEqual(Math.min(lost, GLOBAL_LIMIT));
  expect(new Set(calls.filter((c) => c.runId === rollouts.id).map((c) => c.cacheKey)).size).toBe(items * 3);
  expect(peakInFlight(killedAt)).toBeLessThanOrEqual(GLOBAL_LIMIT);
  expect(peakInFlight(killedAt)).toBe(GLOBAL_LIMIT); // the limit was reached: the check has teeth
  // Every episode is in the journal, ended, with both calls.
  const journal = await t.db.servedEpisode.findMany({ where: { id: { in: episodes.map((e) => e.id) } } });
  expect(journal).toHaveLength(EPISODES);
  expect(journal.every((j) => j.endedAt !== null && (j.calls as unknown[]).length === 2)).toBe(true);
});
