import { afterAll, describe, expect, it } from "vitest";
import { createSandboxRunner } from "@/lib/sandbox";
import { createTestProject } from "@/prisma/seed/factories";
import { loadSamples } from "@/prisma/seed/load-samples";
import { seedSamples } from "@/prisma/seed/seed-samples";
import { useTestDatabase } from "@/tests/db";
import { reproveAfterEdit } from "./reprove-after-edit";
import { runValidatorProof } from "./run-validator-proof";

const t = useTestDatabase();
const runner = createSandboxRunner();
const sample = loadSamples().find((s) => s.slug === "library-lending") ?? loadSamples()[0]!;
afterAll(() => runner.close());

async function provenScenarioWithEditedCheck() {
  const project = await createTestProject(t.db, "reprove");
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
  const scenario = await t.db.scenario.findFirstOrThrow({
    where: { environmentId: env.id },
    include: { validators: { orderBy: { position: "asc" } } },
  });
  const proven = await runValidatorProof(t.db, { scenarioId: scenario.id }, { sandbox: runner });
  expect(proven.ok && proven.value.status).toBe("VERIFIED");
  const validator = scenario.validators[0]!;
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
  return { env, scenario };
}

describe("reproveAfterEdit (called by the code and validator editors after a save)", () => {
  it("marks the edited scenario's proof stale and enqueues one proof run for it", async () => {
    const { env, scenario } = await provenScenarioWithEditedCheck();
    const sent: string[] = [];
    const result = await reproveAfterEdit(
      t.db,
      { environmentId: env.id, actorId: null },
      (def, _payload, key) => {
        sent.push(`${def.name} ${key}`);
        return Promise.resolve("job-1");
      },
    );
    expect(result.proofRunId).toBeTruthy();
    expect(sent).toEqual([`scenarios.proof run:${result.proofRunId}`]);
    expect((await t.db.scenario.findUniqueOrThrow({ where: { id: scenario.id } })).proofStatus).toBe("STALE");
    const run = await t.db.pipelineRun.findUniqueOrThrow({ where: { id: result.proofRunId! } });
    expect(run.kind).toBe("PROOF");
  });

  it("reports a queue failure instead of failing the save, leaving the scenario stale for a retry", async () => {
    const { env, scenario } = await provenScenarioWithEditedCheck();
    const result = await reproveAfterEdit(t.db, { environmentId: env.id, actorId: null }, () =>
      Promise.reject(new Error("queue unreachable")),
    );
    expect(result.proofRunId).toBeNull();
    expect(result.error).toMatch(/could not be re-queued: queue unreachable/);
    expect((await t.db.scenario.findUniqueOrThrow({ where: { id: scenario.id } })).proofStatus).toBe("STALE");
  });

  it("does nothing when no proof is out of date", async () => {
    const project = await createTestProject(t.db, "reprove-none");
    const env = await t.db.environment.create({
      data: { projectId: project.id, slug: "none", name: "none", origin: "MANUAL" },
    });
    const result = await reproveAfterEdit(t.db, { environmentId: env.id, actorId: null }, () =>
      Promise.reject(new Error("must not be called")),
    );
    expect(result).toEqual({ proofRunId: null });
  });
});
