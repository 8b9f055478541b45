/**
 * Chaos: a SkelBuilder run of ten environments against an endpoint where 30 % of requests fail
 * (429 with Retry-After, 500, timeouts, truncated JSON, wrong shape, code that does not parse),
 * on the real job worker and Postgres. The run must finish; every failure must be visible with its
 * cause; no rejected reply may be cached; and once the endpoint is healthy, re-running the failed
 * steps must succeed — no step may fail again on a cached reply, and no stored answer is bought twice.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningWorker } from "@/lib/jobs/worker";
import { createTestProject } from "@/prisma/seed/factories";
import { useTestDatabase } from "@/tests/db";
import { withChaos } from "@/tests/fake-openai/chaos";
import { createPipelineScript } from "@/tests/fake-openai/pipeline-script";
import { loadSampleEnv } from "@/tests/fake-openai/sample-env";
import { type FakeOpenAi, promptText, startFakeOpenAi } from "@/tests/fake-openai/server";
import { startPipelineWorker, testRunConfig, useFakeEndpoint, waitForRun } from "@/tests/pipeline-harness";
import { rerunStep } from "./control-run";
import { createRun } from "./create-run";

const t = useTestDatabase();
const library = loadSampleEnv("library-lending", { operations: ["get_member", "renew_loan", "pay_fines"] });
const healthy = createPipelineScript([library]);
const IDEAS = Array.from({ length: 10 }, (_, i) => `Library lending desk number ${i + 1}`);
// Two environments are sure to fail: one on a reply of the wrong shape, one on code that does not parse.
// Desk 7's state model is spared the random faults, so it reaches state_code whatever order the
// concurrent requests reach the endpoint in (the seeded faults follow arrival order).
const chaos = withChaos(healthy, {
  rate: 0.3,
  seed: 18,
  force: (body, stage) => {
    const text = promptText(body);
    if (stage === "state" && text.includes("desk number 3\n")) return "wrong_shape";
    if (stage === "state_code" && text.includes("desk number 7\n")) return "garbage_code";
    if (stage === "state" && text.includes("desk number 7\n")) return "none";
    return null;
  },
});
let fake: FakeOpenAi;
let worker: RunningWorker;

beforeAll(async () => {
  fake = await startFakeOpenAi({ script: chaos.script });
  useFakeEndpoint(fake.url);
  process.env.LLM_TIMEOUT_MS = "700"; // a hang costs a timeout; keep it short
  process.env.LLM_MAX_ATTEMPTS = "3";
  worker = await startPipelineWorker(t.db, t.url);
});
afterAll(async () => {
  await worker?.stop();
  await fake?.close();
});

describe("chaos: 10 environments, 30 % faults", () => {
  it(
    "finishes, explains every failure, caches no rejected reply, and a re-run on a healthy endpoint succeeds",
    { timeout: 240_000 },
    async () => {
      const project = await createTestProject(t.db);
      // Few re-asks on the single-call stages, so parse faults really fail steps.
      const config = testRunConfig({
        qualityRounds: 2,
        maxReasks: { state: 0, state_code: 1, operations: 0, test_state: 0 },
      });
      const run = await createRun(t.db, worker.queue, {
        projectId: project.id,
        input: { kind: "ideas", ideas: IDEAS },
        config,
      });
      const done = await waitForRun(t.db, run.id, 200_000);

      // Finished, nothing stuck, and the faults really happened.
      expect(done.run.isTerminal).toBe(true);
      expect(done.stages.every((s) => s.pending === 0 && s.running === 0)).toBe(true);
      for (const kind of [
        "rate_limited",
        "server_error",
        "timeout",
        "truncated_json",
        "wrong_shape",
        "garbage_code",
      ] as const)
        expect(chaos.injected[kind]).toBeGreaterThan(0);

      // Every failed step says why, and the failing replies are there to read with their reason.
      const failed = done.failures.filter((f) => f.status === "FAILED");
      expect(failed.length).toBeGreaterThanOrEqual(2);
      for (const f of failed) expect(f.errorMessage).toBeTruthy();
      expect(failed).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ stage: "state", errorCode: "PARSE_FAILED" }),
          expect.objectContaining({ stage: "state_code", errorCode: "PARSE_FAILED" }),
        ]),
      );
      // Desk 7's code never parses: its failure names the SyntaxError. (Other state_code steps may
      // fail too, on random faults with other causes, so look for it among them.)
      const codeFailures = failed.filter((f) => f.stage === "state_code").map((f) => f.errorMessage);
      expect(codeFailures).toEqual(expect.arrayContaining([expect.stringMatching(/SyntaxError/)]));
      const rejected = done.llmProblems.filter((p) => p.status === "REJECTED" && !p.cached);
      expect(rejected.length).toBeGreaterThan(0);
      expect(rejected.every((p) => p.rejection && p.rawReply)).toBe(true);
      // Transient causes are kept per attempt, a Retry-After honoured as sent.
      const logs = await t.db.llmCall.findMany({
        where: { runId: run.id, cached: false },
        select: { attemptLog: true },
      });
      const attempts = logs.flatMap((c) => c.attemptLog as object[]);
      expect(attempts).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            ok: false,
            code: "RATE_LIMITED",
            status: 429,
            retryAfterMs: 30,
            waitMs: 30,
          }),
          expect.objectContaining({ ok: false, code: "SERVER_ERROR", status: 500 }),
          expect.objectContaining({ ok: false, code: "TIMEOUT" }),
        ]),
      );
      expect(done.llm.endpoints.reduce((n, e) => n + e.errors, 0)).toBe(done.llm.errorResponses);
      expect(done.llm.endpoints.every((e) => e.p95LatencyMs !== null)).toBe(true);

      // The ledger agrees with the endpoint: every request it received is accounted for.
      const l = done.llm;
      expect(l.requestsSent).toBe(fake.chatRequests().length);
      expect(l.answersUsed + l.answersRejected + l.errorResponses + l.answersLost + l.inFlight).toBe(
        l.requestsSent,
      );

      // No rejected reply sits in the cache (unless the same request was later answered acceptably).
      const rejectedKeys = await t.db.llmCall.findMany({
        where: { runId: run.id, status: "REJECTED", cached: false },
        select: { cacheKey: true },
      });
      const acceptedKeys = new Set(
        (
          await t.db.llmCall.findMany({
            where: { runId: run.id, status: "ACCEPTED", cached: false },
            select: { cacheKey: true },
          })
        ).map((c) => c.cacheKey),
      );
      const poisoned = await t.db.llmCacheEntry.count({
        where: { cacheKey: { in: rejectedKeys.map((k) => k.cacheKey).filter((k) => !acceptedKeys.has(k)) } },
      });
      expect(poisoned).toBe(0);

      // Healthy again: re-run every failed step (from the cache, not fresh).
      fake.setScript(healthy);
      const storedBefore = new Set(
        (
          await t.db.llmCall.findMany({
            where: { runId: run.id, status: "ACCEPTED", cached: false },
            select: { cacheKey: true },
          })
        ).map((c) => c.cacheKey),
      );
      const sentBefore = fake.chatRequests().length;
      const rerunAt = new Date();
      for (const f of failed)
        await rerunStep(t.db, worker.queue, {
          runId: run.id,
          subjectKey: f.subjectKey,
          stage: f.stage,
          fresh: false,
        });
      const again = await waitForRun(t.db, run.id, 200_000);
      expect(again.run.status).toBe("SUCCEEDED");
      expect(again.failures).toEqual([]);
      expect(again.steps.every((s) => s.status === "SUCCEEDED")).toBe(true);
      expect(again.environments).toHaveLength(10);
      // The re-run asked the endpoint only for what had not been answered and stored before: each
      // stored answer was paid for exactly once, and the re-run's paid calls are all new requests.
      const resent = fake.chatRequests().length - sentBefore;
      expect(resent).toBeGreaterThan(0);
      const paid = await t.db.llmCall.groupBy({
        by: ["cacheKey"],
        where: { runId: run.id, status: "ACCEPTED", cached: false },
        _count: { _all: true },
      });
      expect(paid.filter((p) => p._count._all > 1)).toEqual([]);
      const rerunPaid = await t.db.llmCall.findMany({
        where: { runId: run.id, cached: false, createdAt: { gt: rerunAt } },
        select: { cacheKey: true, attempts: true },
      });
      expect(rerunPaid.filter((c) => storedBefore.has(c.cacheKey))).toEqual([]);
      expect(rerunPaid.reduce((n, c) => n + c.attempts, 0)).toBe(resent);
      expect(
        await t.db.llmCall.count({ where: { runId: run.id, cached: true, createdAt: { gt: rerunAt } } }),
      ).toBeGreaterThan(0);
      expect(again.llm.requestsSent).toBe(fake.chatRequests().length);
    },
  );
});
