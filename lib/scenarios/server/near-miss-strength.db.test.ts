/**
 * Validator strength: a proof replays near-misses of the gold calls and stores, with the proof row
 * for exactly the versions it ran with, how many the checks reject. A check that looks at only one
 * of the two changes a task needs accepts the near-miss that skips the other one, and is flagged
 * with it; a checklist that looks at both is not. Strength measured for old checks never shows
 * for checks saved while the proof ran.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createSandboxRunner, type SandboxRunner } from "@/lib/sandbox";
import { actorOf, createUser } from "@/prisma/seed/factories";
import { useTestDatabase } from "@/tests/db";
import { findPinnedStrength, findWeakValidators } from "./find-weak-validators";
import { runValidatorProof } from "./run-validator-proof";
import { saveValidatorVersion } from "./save-validator-version";
import { COUNT_IS_2, TAGGED_DONE, TWO_CHANGE_GOLD } from "@/tests/two-change-counter";
import { seedCounterEnvironment, seedCounterScenario } from "@/tests/two-change-counter-seed";

// A query first: near-misses drop or alter state-changing calls only.
const GOLD = [{ name: "get_count", arguments: {} }, ...TWO_CHANGE_GOLD];

const t = useTestDatabase();
const runner = createSandboxRunner();
afterAll(() => runner.close());

async function scenarioWith(checks: string[], goldCalls: unknown[] = GOLD) {
  const { project, env } = await seedCounterEnvironment(t.db, runner, "near-miss");
  const scenario = await seedCounterScenario(t.db, env.id, checks, { goldCalls });
  return { project, env, scenario };
}

async function currentPins(scenarioId: string) {
  const s = await t.db.scenario.findUniqueOrThrow({
    where: { id: scenarioId },
    include: { environment: true, validators: { orderBy: { position: "asc" } } },
  });
  return {
    environmentVersionId: s.environment.currentVersionId!,
    validatorVersionIds: s.validators.map((v) => v.currentVersionId!),
  };
}

describe("validator strength", () => {
  it("flags a check that looks at only one of two required changes, with the exact near-misses that passed", async () => {
    const { project, scenario } = await scenarioWith([COUNT_IS_2]);
    const proven = await runValidatorProof(t.db, { scenarioId: scenario.id }, { sandbox: runner });
    expect(proven.ok && proven.value.status).toBe("VERIFIED");
    const after = await t.db.scenario.findUniqueOrThrow({ where: { id: scenario.id } });
    // Weak, not failed: the scenario stays VERIFIED and can be accepted.
    expect(after.status).toBe("VERIFIED");
    expect(after.proofStatus).toBe("VERIFIED");

    const strength = await findPinnedStrength(t.db, scenario.id, await currentPins(scenario.id));
    expect(strength).toMatchObject({ status: "MEASURED", total: 4, rejected: 2, crashed: 0 });
    expect(strength?.perCheck).toEqual([{ position: 0, rejected: 2 }]);
    expect(strength?.passed).toEqual([
      {
        kind: "drop",
        description: "skips call 3 (tag)",
        calls: [GOLD[0], GOLD[1]],
      },
      {
        kind: "change_argument",
        description: 'call 3 (tag) with label="done (altered)" instead of "done"',
        calls: [GOLD[0], GOLD[1], { name: "tag", arguments: { label: "done (altered)" } }],
      },
    ]);

    const weak = await findWeakValidators(t.db, { projectId: project.id });
    expect(weak.map((w) => [w.scenarioId, w.passed.map((p) => p.description)])).toEqual([
      [scenario.id, ["skips call 3 (tag)", 'call 3 (tag) with label="done (altered)" instead of "done"']],
    ]);
    expect(weak[0]?.pins).toEqual(await currentPins(scenario.id));
  });

  it("does not flag a checklist that looks at both changes", async () => {
    const { project, scenario } = await scenarioWith([COUNT_IS_2, TAGGED_DONE]);
    const proven = await runValidatorProof(t.db, { scenarioId: scenario.id }, { sandbox: runner });
    expect(proven.ok && proven.value.status).toBe("VERIFIED");
    const strength = await findPinnedStrength(t.db, scenario.id, await currentPins(scenario.id));
    expect(strength).toMatchObject({ status: "MEASURED", total: 4, rejected: 4, passed: [] });
    // Each check rejects what it looks at: the count check the skipped add and the changed amount.
    expect(strength?.perCheck).toEqual([
      { position: 0, rejected: 2 },
      { position: 1, rejected: 2 },
    ]);
    expect(await findWeakValidators(t.db, { projectId: project.id })).toEqual([]);
  });

  it("says no near-misses are derivable for a scenario without gold calls, without an error", async () => {
    const { project, scenario } = await scenarioWith([COUNT_IS_2], []);
    const proven = await runValidatorProof(t.db, { scenarioId: scenario.id }, { sandbox: runner });
    expect(proven.ok && proven.value.status).toBe("FAILED");
    const strength = await findPinnedStrength(t.db, scenario.id, await currentPins(scenario.id));
    expect(strength).toMatchObject({
      status: "NONE_DERIVABLE",
      reason: "the scenario has no gold calls to derive them from",
      total: 0,
      passed: [],
    });
    expect(await findWeakValidators(t.db, { projectId: project.id })).toEqual([]);
  });

  it("keeps strength measured for old checks off the checks saved while the proof ran", async () => {
    const { project, scenario } = await scenarioWith([COUNT_IS_2]);
    const validator = await t.db.validator.findFirstOrThrow({
      where: { scenarioId: scenario.id },
      include: { currentVersion: true },
    });
    const oldPins = await currentPins(scenario.id);
    const actor = actorOf(await createUser(t.db, { role: "REVIEWER" }));
    let saved = false;
    // The save lands after the proof has read the scenario (its first sandbox load), before it stores.
    const sandbox: Pick<SandboxRunner, "load" | "runChecks" | "runChecksBatch"> = {
      load: async (request) => {
        if (!saved) {
          saved = true;
          await saveValidatorVersion(
            t.db,
            {
              validatorId: validator.id,
              baseVersionId: validator.currentVersionId!,
              code: `${validator.currentVersion!.code}\n# reviewed\n`,
              message: "edited while the old check is being proven",
            },
            actor,
            { analyze: (r) => runner.analyze(r) },
          );
        }
        return runner.load(request);
      },
      runChecks: (request) => runner.runChecks(request),
      runChecksBatch: (request) => runner.runChecksBatch(request),
    };
    const proven = await runValidatorProof(t.db, { scenarioId: scenario.id }, { sandbox });
    expect(saved).toBe(true);
    expect(proven.ok && proven.value.status).toBe("VERIFIED");
    // The evidence is stored for the versions it ran with…
    expect(await findPinnedStrength(t.db, scenario.id, oldPins)).toMatchObject({
      status: "MEASURED",
      rejected: 2,
    });
    // …and nothing about the new check: not measured, not weak.
    const newPins = await currentPins(scenario.id);
    expect(newPins.validatorVersionIds).not.toEqual(oldPins.validatorVersionIds);
    expect(await findPinnedStrength(t.db, scenario.id, newPins)).toBeNull();
    expect(await findWeakValidators(t.db, { projectId: project.id })).toEqual([]);
  });
});
