/** memoStep against Postgres: a finished step's stored output is parsed with the step's schema, never cast. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ok } from "@/lib/core/result";
import { createTestProject } from "@/prisma/seed/factories";
import { useTestDatabase } from "@/tests/db";
import { memoStep } from "./step-memo";

const t = useTestDatabase();
const OutputSchema = z.object({ trajectoryId: z.string(), reward: z.number() });

async function newRun() {
  const project = await createTestProject(t.db, "step-memo");
  return t.db.pipelineRun.create({
    data: { projectId: project.id, kind: "ROLLOUT", name: "memo", config: {}, input: {} },
  });
}

describe("memoStep", () => {
  it("returns a finished step's stored output, parsed, without running the work again", async () => {
    const run = await newRun();
    const key = { runId: run.id, subjectKey: "s:0", stage: "rollout" };
    let calls = 0;
    const work = () => Promise.resolve(ok({ trajectoryId: `t${++calls}`, reward: 1 }));
    expect(await memoStep(t.db, key, OutputSchema, work)).toEqual({
      status: "SUCCEEDED",
      output: { trajectoryId: "t1", reward: 1 },
      reused: false,
    });
    expect(await memoStep(t.db, key, OutputSchema, work)).toEqual({
      status: "SUCCEEDED",
      output: { trajectoryId: "t1", reward: 1 },
      reused: true,
    });
    expect(calls).toBe(1);
  });

  it("recomputes a finished step whose stored output does not fit the schema (an older shape)", async () => {
    const run = await newRun();
    const key = { runId: run.id, subjectKey: "s:1", stage: "rollout" };
    await t.db.pipelineStep.create({
      data: { ...key, status: "SUCCEEDED", output: { trajectory: "old-shape" } },
    });
    const outcome = await memoStep(t.db, key, OutputSchema, () =>
      Promise.resolve(ok({ trajectoryId: "fresh", reward: 0.5 })),
    );
    expect(outcome).toEqual({
      status: "SUCCEEDED",
      output: { trajectoryId: "fresh", reward: 0.5 },
      reused: false,
    });
    const stored = await t.db.pipelineStep.findUniqueOrThrow({ where: { runId_subjectKey_stage: key } });
    expect(stored.output).toEqual({ trajectoryId: "fresh", reward: 0.5 });
  });
});
