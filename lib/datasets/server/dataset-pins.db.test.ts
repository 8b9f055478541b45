/**
 * A dataset version holds the code that was reviewed and proven. Proof rows are
 * written directly here (the proof itself has its own tests); saving, deciding, planning, creating
 * and the export reader are the real functions.
 */
import { describe, expect, it } from "vitest";
import { ok } from "@/lib/core/result";
import { saveEnvironmentVersion, type AnalyzeDeps } from "@/lib/environments/server/save-environment-version";
import { loadExportEnvironments } from "@/lib/export/server/load-export-input";
import { decideItem } from "@/lib/review/server/decide-item";
import type { Analysis } from "@/lib/sandbox";
import { createEnvironment, createScenario, createTestProject, createUser } from "@/prisma/seed/factories";
import { useTestDatabase } from "@/tests/db";
import { createDatasetVersion, previewDatasetVersion } from "./create-dataset-version";

const t = useTestDatabase();

const sandbox: AnalyzeDeps = {
  analyze: () =>
    Promise.resolve(
      ok<Analysis>({
        syntaxErrors: [],
        classFound: true,
        classes: ["Counter"],
        publicMethods: ["get_count"],
        forbiddenImports: [],
        hasAsync: false,
        tools: [],
      }),
    ),
};

async function world() {
  const project = await createTestProject(t.db);
  const env = await createEnvironment(t.db, project.id, { status: "ACCEPTED" });
  const scenario = await createScenario(t.db, env.id, { status: "ACCEPTED" });
  const user = await createUser(t.db, { role: "REVIEWER" });
  const actor = { id: user.id, email: user.email, name: user.name, role: user.role };
  const validators = await t.db.validator.findMany({
    where: { scenarioId: scenario.id },
    orderBy: { position: "asc" },
  });
  const checks = validators.map((v) => v.currentVersionId!);
  const prove = (environmentVersionId: string, status: "VERIFIED" | "FAILED") =>
    t.db.validatorProof.create({
      data: {
        scenarioId: scenario.id,
        environmentVersionId,
        validatorVersionIds: checks,
        status,
        noop: {},
        gold: {},
        sensitivity: {},
      },
    });
  return { project, env, scenario, actor, prove };
}

describe("dataset versions pin accepted, proven versions", () => {
  it("pins the accepted version after an edit, then the new one once it is accepted and proven; exports it", async () => {
    const { project, env, scenario, actor, prove } = await world();
    const v1 = env.currentVersionId!;
    await prove(v1, "VERIFIED");
    const v2 = await saveEnvironmentVersion(
      t.db,
      {
        environmentId: env.id,
        baseVersionId: v1,
        source: "class Counter:\n    pass  # v2\n",
        message: "fix",
      },
      actor,
      sandbox,
    );
    // The edit put the environment back in review, remembering what was accepted.
    expect(await t.db.environment.findUniqueOrThrow({ where: { id: env.id } })).toMatchObject({
      status: "IN_REVIEW",
      acceptedVersionId: v1,
    });

    const before = await previewDatasetVersion(t.db, { projectId: project.id, name: "pins" });
    expect(before.included).toEqual([
      expect.objectContaining({
        scenarioId: scenario.id,
        environmentVersion: 1,
        validatorVersions: [1],
        overridden: false,
      }),
    ]);
    expect(before.included[0]?.note).toContain("environment changed since accepted: pinned to v1");

    await prove(v2.versionId, "VERIFIED");
    await decideItem(
      t.db,
      {
        kind: "environment",
        id: env.id,
        decision: "ACCEPT",
        reason: "",
        versionId: v2.versionId,
      },
      actor,
    );
    const made = await createDatasetVersion(t.db, { projectId: project.id, name: "pins" });
    const item = await t.db.datasetItem.findFirstOrThrow({ where: { datasetVersionId: made.id } });
    expect(item.environmentVersionId).toBe(v2.versionId);
    const [exported] = await loadExportEnvironments(t.db, made.id);
    expect(exported?.env).toMatchObject({ version: 2, source: "class Counter:\n    pass  # v2\n" });
  });

  it("leaves out items whose pins are not proven (with the reason) unless a written override lets them in, logged", async () => {
    const { project, env, scenario, actor, prove } = await world();
    await prove(env.currentVersionId!, "FAILED");
    const plan = await previewDatasetVersion(t.db, { projectId: project.id, name: "strict" });
    expect(plan.included).toEqual([]);
    expect(plan.excluded).toEqual([
      expect.objectContaining({
        scenarioId: scenario.id,
        reason: "proof failed for environment v1",
        needsOverride: true,
      }),
    ]);
    await expect(createDatasetVersion(t.db, { projectId: project.id, name: "strict" })).rejects.toThrow(
      /No accepted, verified scenarios match \(1 proof failed for environment v1\)/,
    );

    const forced = await createDatasetVersion(t.db, {
      projectId: project.id,
      name: "forced",
      overrideReason: "smoke test of the trainer",
      createdById: actor.id,
    });
    expect(forced.overrideReason).toBe("smoke test of the trainer");
    expect(await t.db.datasetItem.findFirstOrThrow({ where: { datasetVersionId: forced.id } })).toMatchObject(
      { overridden: true },
    );
    const logged = await t.db.reviewDecision.findFirstOrThrow({
      where: { targetType: "DATASET_VERSION", targetId: forced.id },
    });
    expect(logged).toMatchObject({
      decision: "OVERRIDE",
      reason: "smoke test of the trainer",
      actorId: actor.id,
    });
    expect(JSON.stringify(logged.after)).toContain("proof failed for environment v1");
  });

  it("an explicit pin to a version that was not accepted needs the override", async () => {
    const { project, env, actor, prove } = await world();
    await prove(env.currentVersionId!, "VERIFIED");
    const v2 = await saveEnvironmentVersion(
      t.db,
      {
        environmentId: env.id,
        baseVersionId: env.currentVersionId!,
        source: "class Counter:\n    pass\n",
        message: "draft",
      },
      actor,
      sandbox,
    );
    await prove(v2.versionId, "VERIFIED");
    const pinned = await previewDatasetVersion(t.db, {
      projectId: project.id,
      name: "p",
      pins: { [env.id]: v2.versionId },
    });
    expect(pinned.excluded[0]?.reason).toBe("environment v2 not accepted");
    expect(pinned.environments[0]?.versions.map((v) => [v.version, v.accepted])).toEqual([
      [2, false],
      [1, true],
    ]);
    const forced = await previewDatasetVersion(t.db, {
      projectId: project.id,
      name: "p",
      pins: { [env.id]: v2.versionId },
      overrideReason: "try the fix",
    });
    expect(forced.included[0]).toMatchObject({ environmentVersion: 2, overridden: true });
  });
});
