/** runValidatorProof against real Postgres: pinning, staleness after code or validator edits, gold from a rollout. */
import { afterAll, describe, expect, it } from "vitest";
import type { Prisma } from "@/lib/db";
import { createSandboxRunner } from "@/lib/sandbox";
import { sha256 } from "@/lib/environments/hash";
import { createTestProject } from "@/prisma/seed/factories";
import { loadSamples } from "@/prisma/seed/load-samples";
import { seedSamples } from "@/prisma/seed/seed-samples";
import { useTestDatabase } from "@/tests/db";
import { findStaleScenarios, markProofsStale, requeueStaleProofs } from "./mark-proofs-stale";
import { enqueueProofRun, executeProofRun } from "./proof-run";
import { runValidatorProof } from "./run-validator-proof";
import { createRunLlmFactory } from "@/lib/runs/server/run-llm";

const t = useTestDatabase();
const runner = createSandboxRunner();
const sample = loadSamples().find((s) => s.slug === "shop-orders-refunds") ?? loadSamples()[0]!;
afterAll(() => runner.close());

async function seed() {
  const project = await createTestProject(t.db, "proof");
  await seedSamples(t.db, {
    projectId: project.id,
    samples: [sample],
    toolsFor: async (s) => {
      const r = await runner.extractTools(s.source, s.meta.env_class_name);
      if (!r.ok) throw new Error(r.error.message);
      return r.value;
    },
  });
  const env = await t.db.environment.findFirstOrThrow({ where: { projectId: project.id } });
  const scenarios = await t.db.scenario.findMany({
    where: { environmentId: env.id },
    orderBy: { externalId: "asc" },
    include: { validators: { orderBy: { position: "asc" } } },
  });
  return { project, env, scenarios };
}

describe("runValidatorProof", () => {
  it("verifies stored-gold scenarios, then re-proves when a validator or the code changes", async () => {
    const { project, env, scenarios } = await seed();
    const first = scenarios[0]!;
    const proven = await runValidatorProof(t.db, { scenarioId: first.id }, { sandbox: runner });
    expect(proven.ok && proven.value).toMatchObject({
      status: "VERIFIED",
      reasons: [],
      goldSource: "scenario",
    });
    expect((await t.db.scenario.findUniqueOrThrow({ where: { id: first.id } })).status).toBe("ACCEPTED");
    expect(await findStaleScenarios(t.db, { environmentId: env.id })).toEqual([]);

    // A reviewer replaces check 1 with one that passes on anything.
    const validator = first.validators[0]!;
    const v2 = await t.db.validatorVersion.create({
      data: {
        validatorId: validator.id,
        version: 2,
        code: "def check_func(final_state):\n    return True\n",
        checkItem: validator.checkItem,
        producedBy: "user",
      },
    });
    await t.db.validator.update({ where: { id: validator.id }, data: { currentVersionId: v2.id } });
    const stale = await findStaleScenarios(t.db, { environmentId: env.id });
    expect(stale).toEqual([first.id]);
    expect(await markProofsStale(t.db, stale)).toBe(1);
    expect((await t.db.scenario.findUniqueOrThrow({ where: { id: first.id } })).proofStatus).toBe("STALE");

    const run = await enqueueProofRun(t.db, () => Promise.resolve(null), {
      projectId: project.id,
      scenarioIds: stale,
      reason: "validator edited",
    });
    await executeProofRun(t.db, run.id, {
      sandbox: runner,
      llmFor: createRunLlmFactory(t.db, { baseUrl: null }),
    });
    const after = await t.db.scenario.findUniqueOrThrow({
      where: { id: first.id },
      include: { proofs: { orderBy: { createdAt: "desc" } } },
    });
    expect(after).toMatchObject({ status: "IN_REVIEW", proofStatus: "FAILED" });
    expect((after.proofReasons as { code: string; position: number }[])[0]).toMatchObject({
      code: "PASSES_WITHOUT_WORK",
      position: 0,
    });
    expect((after.proofs[0]!.validatorVersionIds as string[])[0]).toBe(v2.id);
    expect(after.proofs).toHaveLength(2);

    // A new code version makes every proven scenario of the environment stale.
    await runValidatorProof(t.db, { scenarioId: scenarios[1]!.id }, { sandbox: runner });
    const source = `${sample.source}\n# edited\n`;
    const version = await t.db.environmentVersion.create({
      data: {
        environmentId: env.id,
        version: 2,
        className: sample.meta.env_class_name,
        source,
        sourceHash: sha256(source),
        producedBy: "user",
      },
    });
    await t.db.environment.update({ where: { id: env.id }, data: { currentVersionId: version.id } });
    expect((await findStaleScenarios(t.db, { environmentId: env.id })).sort()).toEqual(
      [first.id, scenarios[1]!.id].sort(),
    );
    const sent: string[] = [];
    const rerun = await requeueStaleProofs(
      t.db,
      (def, _payload, key) => {
        sent.push(`${def.name} ${key}`);
        return Promise.resolve(null);
      },
      { projectId: project.id, environmentId: env.id },
    );
    expect(sent).toEqual([`scenarios.proof run:${rerun}`]);
    expect((await t.db.scenario.findUniqueOrThrow({ where: { id: scenarios[1]!.id } })).proofStatus).toBe(
      "STALE",
    );
  });

  it("takes a rollout that reached reward 1 as the gold solution, and reports what is missing without one", async () => {
    const { env, scenarios } = await seed();
    const s = scenarios[0]!;
    const gold = (sample.scenarios[0]!.gold_calls ?? []).map((c, i) => ({
      type: "tool_call",
      index: i,
      toolCallId: `c${i}`,
      name: c.name,
      rawArguments: JSON.stringify(c.arguments),
      arguments: c.arguments,
      observation: {},
      isError: false,
      errorKind: null,
      diff: { added: [], removed: [], changed: [] },
    }));
    await t.db.$executeRaw`UPDATE "Scenario" SET "goldCalls" = NULL WHERE id = ${s.id}`;
    const none = await runValidatorProof(t.db, { scenarioId: s.id }, { sandbox: runner });
    expect(none.ok && none.value.reasons.map((r) => r.code)).toEqual(["NO_GOLD"]);
    await t.db.trajectory.create({
      data: {
        scenarioId: s.id,
        environmentVersionId: env.currentVersionId!,
        model: "m",
        mode: "non_conversational",
        messages: [],
        steps: gold as Prisma.InputJsonValue,
        finalState: {},
        checkResults: [],
        reward: 1,
        status: "COMPLETED",
        stepCount: gold.length,
      },
    });
    const fromRollout = await runValidatorProof(t.db, { scenarioId: s.id }, { sandbox: runner });
    expect(fromRollout.ok && fromRollout.value).toMatchObject({ status: "VERIFIED", goldSource: "rollout" });
    const missing = await runValidatorProof(t.db, { scenarioId: "nope" }, { sandbox: runner });
    expect(!missing.ok && missing.error.code).toBe("NOT_FOUND");
  });
});
