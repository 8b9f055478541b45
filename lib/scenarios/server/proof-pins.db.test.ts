/**
 * A proof belongs to the versions it ran with. A reviewer saves new checks while a proof of the old
 * ones is running (deterministically: the sandbox call of the proof waits for the save): the proof
 * row is kept for the old checks, and nothing says the new checks are verified — not the scenario's
 * status, not an accept (which needs a written reason), not a dataset plan.
 */
import { afterAll, describe, expect, it } from "vitest";
import { previewDatasetVersion } from "@/lib/datasets/server/create-dataset-version";
import { decideItem } from "@/lib/review/server/decide-item";
import { createSandboxRunner, type SandboxRunner } from "@/lib/sandbox";
import { actorOf, createTestProject, createUser, currentVersionsOf } from "@/prisma/seed/factories";
import { loadSamples } from "@/prisma/seed/load-samples";
import { toolsExtractedBy } from "@/prisma/seed/sandbox-tools";
import { seedSamples } from "@/prisma/seed/seed-samples";
import { useTestDatabase } from "@/tests/db";
import { runValidatorProof } from "./run-validator-proof";
import { saveValidatorVersion } from "./save-validator-version";

const t = useTestDatabase();
const runner = createSandboxRunner();
const sample = loadSamples().find((s) => s.slug === "shop-orders-refunds") ?? loadSamples()[0]!;
afterAll(() => runner.close());

async function seed() {
  const project = await createTestProject(t.db, "proof-pins");
  await seedSamples(t.db, { projectId: project.id, samples: [sample], toolsFor: toolsExtractedBy(runner) });
  const scenario = await t.db.scenario.findFirstOrThrow({
    where: { environment: { projectId: project.id } },
    orderBy: { externalId: "asc" },
    include: { validators: { orderBy: { position: "asc" }, include: { currentVersion: true } } },
  });
  const user = await createUser(t.db, { role: "REVIEWER" });
  const actor = actorOf(user);
  return { project, scenario, actor };
}

describe("a proof of old checks", () => {
  it("does not verify the checks a reviewer saved while it ran", async () => {
    const { project, scenario, actor } = await seed();
    const edited = scenario.validators[0]!;
    let saved = false;
    // The proof has loaded check 1 v1 and runs it in the sandbox; the save lands meanwhile.
    const sandbox: Pick<SandboxRunner, "load" | "runChecks" | "runChecksBatch"> = {
      load: (request) => runner.load(request),
      runChecks: (request) => runner.runChecks(request),
      runChecksBatch: async (request) => {
        if (!saved) {
          saved = true;
          await saveValidatorVersion(
            t.db,
            {
              validatorId: edited.id,
              baseVersionId: edited.currentVersionId!,
              code: `${edited.currentVersion!.code}\n# reviewed\n`,
              message: "a new check while the old one is being proven",
            },
            actor,
            { analyze: (r) => runner.analyze(r) },
          );
        }
        return runner.runChecksBatch(request);
      },
    };
    const proven = await runValidatorProof(t.db, { scenarioId: scenario.id }, { sandbox });
    expect(saved).toBe(true);
    expect(proven.ok && proven.value.status).toBe("VERIFIED");

    const after = await t.db.scenario.findUniqueOrThrow({
      where: { id: scenario.id },
      include: { proofs: true, validators: { orderBy: { position: "asc" } } },
    });
    // The proof row is evidence for the checks it ran: v1, not the current v2.
    expect(after.proofs.map((p) => (p.validatorVersionIds as string[])[0])).toEqual([
      edited.currentVersionId,
    ]);
    expect(after.validators[0]!.currentVersionId).not.toBe(edited.currentVersionId);
    expect(after.proofStatus).toBe("STALE");
    expect(after.status).toBe("IN_REVIEW");

    const seen = await currentVersionsOf(t.db, "scenario", scenario.id);
    await expect(decideItem(t.db, { ...seen, decision: "ACCEPT", reason: "" }, actor)).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringContaining("its validator proof is stale") as unknown,
    });
    await decideItem(t.db, { ...seen, decision: "ACCEPT", reason: "read the new check myself" }, actor);
    const plan = await previewDatasetVersion(t.db, { projectId: project.id, name: "pins" });
    expect(plan.included.map((i) => i.scenarioId)).not.toContain(scenario.id);
    expect(plan.excluded.find((e) => e.scenarioId === scenario.id)?.reason).toContain("proof missing");
  });
});
