/** sendJob against real pg-boss: a payload is parsed with its definition's schema before it reaches the queue. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { useTestDatabase } from "@/tests/db";
import { defineJob, JobError } from "../job-definition";
import { closeJobQueue, sendJob } from "./send-job";

const t = useTestDatabase();
const greet = defineJob({
  name: "test.greet",
  schema: z.object({ name: z.string().min(1) }),
  concurrency: 1,
  retryLimit: 0,
});

const jobsOf = (name: string) =>
  t.db.$queryRawUnsafe<{ data: unknown; singleton_key: string }[]>(
    `SELECT data, singleton_key FROM pgboss.job WHERE name = $1`,
    name,
  );

beforeAll(() => {
  process.env.DATABASE_URL = t.url; // the producer connects the way the studio does
});
afterAll(async () => {
  await closeJobQueue();
});

describe("sendJob", () => {
  it("enqueues a valid payload, parsed by the definition's schema, under its key", async () => {
    expect(await sendJob(greet, { name: "Ada" }, "greet:ada")).toBeTruthy();
    expect(await jobsOf(greet.name)).toEqual([{ data: { name: "Ada" }, singleton_key: "greet:ada" }]);
  });

  it("refuses an invalid payload with a non-retryable JobError before anything reaches the queue", async () => {
    const refused = sendJob(greet, { name: "" }, "greet:empty");
    await expect(refused).rejects.toBeInstanceOf(JobError);
    await expect(refused).rejects.toMatchObject({
      retryable: false,
      message: expect.stringContaining("test.greet: invalid payload") as unknown,
    });
    await expect(sendJob(greet, { name: 42 } as never, "greet:number")).rejects.toThrow(/invalid payload/);
    expect((await jobsOf(greet.name)).map((j) => j.singleton_key)).toEqual(["greet:ada"]);
  });
});
