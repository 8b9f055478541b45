/**
 * The retry policy of a job is its definition's: a handler that always fails retryably runs
 * exactly 1 + retryLimit times on real pg-boss, and only the last run is told it is final.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { useTestDatabase } from "@/tests/db";
import { defineJob } from "./job-definition";
import { handlerFor, handlersOf } from "./server/job-handler";
import { startWorker, type RunningWorker } from "./worker";

const t = useTestDatabase();

const calls: { attempt: number; isFinalAttempt: boolean }[] = [];
const alwaysFails = defineJob({
  name: "test.always-fails",
  schema: z.object({ n: z.number() }),
  concurrency: 1,
  retryLimit: 2,
});
const handler = handlerFor(alwaysFails, (_payload, ctx) => {
  calls.push({ attempt: ctx.attempt, isFinalAttempt: ctx.isFinalAttempt });
  return Promise.reject(new Error("still broken (retryable)"));
});

let worker: RunningWorker;
beforeAll(async () => {
  worker = await startWorker(t.url, [alwaysFails], { db: t.db, loadHandler: handlersOf(handler) });
});
afterAll(async () => {
  await worker?.stop();
});

async function stateOf(id: string): Promise<string | undefined> {
  const rows = await t.db.$queryRawUnsafe<{ state: string }[]>(
    `SELECT state::text FROM pgboss.job WHERE id = $1::uuid`,
    id,
  );
  return rows[0]?.state;
}

describe("retry policy from the job definition", () => {
  it(
    "retries a retryably failing handler exactly retryLimit times, then fails the job",
    { timeout: 90_000 },
    async () => {
      const id = await worker.queue.send(alwaysFails, { n: 1 }, "fails-1");
      expect(id).toBeTruthy();
      while ((await stateOf(id!)) !== "failed") await new Promise((r) => setTimeout(r, 250));
      expect(calls).toEqual([
        { attempt: 0, isFinalAttempt: false },
        { attempt: 1, isFinalAttempt: false },
        { attempt: 2, isFinalAttempt: true },
      ]);
    },
  );
});
