import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { useTestDatabase } from "@/tests/db";
import { defineJob, JobError } from "./job-definition";
import { handlerFor, handlersOf } from "./server/job-handler";
import { startWorker, type RunningWorker } from "./worker";

const t = useTestDatabase();

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe("job worker on pg-boss", () => {
  const seen: string[] = [];
  const attempts = new Map<string, number>();
  const done = new Map<string, ReturnType<typeof deferred<number>>>();
  const wait = (key: string) => {
    if (!done.has(key)) done.set(key, deferred<number>());
    return done.get(key)!.promise;
  };
  const echo = defineJob({
    name: "test.echo",
    schema: z.object({ key: z.string(), mode: z.enum(["ok", "fatal", "flaky"]) }),
    concurrency: 2,
    retryLimit: 2,
  });
  const echoHandler = handlerFor(echo, async ({ key, mode }) => {
    const n = (attempts.get(key) ?? 0) + 1;
    attempts.set(key, n);
    seen.push(key);
    if (mode === "fatal") {
      done.get(key)?.resolve(n);
      throw new JobError("this can never work", false);
    }
    if (mode === "flaky" && n < 2) throw new Error("transient");
    await Promise.resolve();
    if (!done.has(key)) done.set(key, deferred<number>());
    done.get(key)!.resolve(n);
  });
  let worker: RunningWorker;
  beforeAll(async () => {
    worker = await startWorker(t.url, [echo], { db: t.db, loadHandler: handlersOf(echoHandler) });
  });
  afterAll(async () => {
    await worker?.stop();
  });

  it("runs an enqueued job", async () => {
    await worker.queue.send(echo, { key: "a", mode: "ok" }, "a");
    expect(await wait("a")).toBe(1);
  });

  it("retries a failing job that may succeed", async () => {
    await worker.queue.send(echo, { key: "flaky", mode: "flaky" }, "flaky");
    expect(await wait("flaky")).toBe(2);
  });

  it("does not retry a job that says it is not retryable", async () => {
    const finished = wait("fatal");
    await worker.queue.send(echo, { key: "fatal", mode: "fatal" }, "fatal");
    expect(await finished).toBe(1);
    await new Promise((r) => setTimeout(r, 4000)); // longer than the retry delay
    expect(attempts.get("fatal")).toBe(1);
  });

  it("a duplicate enqueue with the same key while queued is a no-op", async () => {
    const first = await worker.boss.send(
      "test.echo",
      { key: "dup", mode: "ok" },
      { singletonKey: "dup", startAfter: 60 },
    );
    const second = await worker.queue.send(echo, { key: "dup", mode: "ok" }, "dup");
    expect(await worker.queue.send(echo, { key: "other", mode: "ok" }, "other")).toBeTruthy();
    expect(first).toBeTruthy();
    expect(second).toBeNull();
    expect(await wait("other")).toBe(1);
  });
});
