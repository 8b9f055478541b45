import { beforeAll, describe, expect, it } from "vitest";
import { acceptAndProveScenarios, createTestProject } from "@/prisma/seed/factories";
import { loadSamples } from "@/prisma/seed/load-samples";
import { seedSamples } from "@/prisma/seed/seed-samples";
import { useTestDatabase } from "@/tests/db";
import { createDatasetVersion } from "./create-dataset-version";
import { getDatasetVersionOrThrow } from "./find-datasets";

const t = useTestDatabase();
let projectId = "";

beforeAll(async () => {
  projectId = (await createTestProject(t.db, "datasets")).id;
  await seedSamples(t.db, { projectId, samples: loadSamples(), toolsFor: () => Promise.resolve([]) });
});

describe("dataset versions", () => {
  it("takes only accepted, verified scenarios unless told otherwise", async () => {
    await expect(createDatasetVersion(t.db, { projectId, name: "none" })).rejects.toThrow(
      /No accepted, verified scenarios/,
    );
    const loose = await createDatasetVersion(t.db, { projectId, name: "loose", allowUnverified: true });
    expect(await t.db.datasetItem.count({ where: { datasetVersionId: loose.id } })).toBeGreaterThan(0);
  });

  it("splits by environment, reproducibly, and never puts an environment on both sides", async () => {
    await acceptAndProveScenarios(t.db, projectId);
    const a = await createDatasetVersion(t.db, { projectId, name: "split-a", seed: 3, testRatio: 0.34 });
    const b = await createDatasetVersion(t.db, { projectId, name: "split-b", seed: 3, testRatio: 0.34 });
    const sides = async (id: string) => {
      const items = await t.db.datasetItem.findMany({
        where: { datasetVersionId: id },
        include: { scenario: { select: { externalId: true, environmentId: true } } },
      });
      return items.map((i) => `${i.scenario.externalId}:${i.split}`).sort();
    };
    expect(await sides(a.id)).toEqual(await sides(b.id));
    const items = await t.db.datasetItem.findMany({
      where: { datasetVersionId: a.id },
      include: { scenario: true },
    });
    const byEnv = new Map<string, Set<string>>();
    for (const i of items)
      byEnv.set(i.scenario.environmentId, (byEnv.get(i.scenario.environmentId) ?? new Set()).add(i.split));
    expect([...byEnv.values()].every((s) => s.size === 1)).toBe(true);
    expect(new Set(items.map((i) => i.split))).toEqual(new Set(["TRAIN", "TEST"]));
  });

  it("makes a new immutable version per edit, with statistics and a changelog", async () => {
    const v1 = await createDatasetVersion(t.db, { projectId, name: "curated", seed: 1 });
    const dropped = await t.db.datasetItem.findFirstOrThrow({
      where: { datasetVersionId: v1.id },
      include: { scenario: { include: { environment: true } } },
    });
    const v2 = await createDatasetVersion(t.db, {
      projectId,
      name: "curated",
      seed: 1,
      excludeScenarioIds: [dropped.scenarioId],
    });
    expect(v2.version).toBe(2);
    const { stats, changelog } = await getDatasetVersionOrThrow(t.db, projectId, "curated", 2);
    expect(changelog?.removed).toEqual([
      `${dropped.scenario.environment.slug}/${dropped.scenario.externalId}`,
    ]);
    expect(changelog?.previousVersion).toBe(1);
    const first = await getDatasetVersionOrThrow(t.db, projectId, "curated", 1);
    expect(stats?.scenarios).toBe((first.stats?.scenarios ?? 0) - 1);
    expect(first.stats?.train.scenarios).toBeGreaterThan(0);
    expect(await t.db.datasetItem.count({ where: { datasetVersionId: v1.id } })).toBe(first.stats?.scenarios);
  });

  it("refuses to create a dataset under a taken name (a new version must be asked for)", async () => {
    await createDatasetVersion(t.db, { projectId, name: "taken", allowUnverified: true, isNew: true });
    await expect(
      createDatasetVersion(t.db, { projectId, name: "taken", allowUnverified: true, isNew: true }),
    ).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining('"taken" already exists') as unknown,
    });
    expect(await t.db.datasetVersion.count({ where: { dataset: { projectId, name: "taken" } } })).toBe(1);
    expect(
      (await createDatasetVersion(t.db, { projectId, name: "taken", allowUnverified: true })).version,
    ).toBe(2);
  });
});
