/**
 * A dataset version over accepted, proven scenarios, for tests that read a version back (row
 * browser, export streaming): a project, the environments with their scenarios in the order given,
 * everything accepted and proven, then the version made by the product's own function.
 */
import { createDatasetVersion } from "@/lib/datasets/server/create-dataset-version";
import type { Db } from "@/lib/db";
import {
  acceptAndProveScenarios,
  createEnvironment,
  createScenario,
  createTestProject,
} from "@/prisma/seed/factories";

type EnvironmentFields = Parameters<typeof createEnvironment>[2];
type ScenarioFields = Parameters<typeof createScenario>[2];

export async function seedProvenDataset(
  db: Db,
  name: string,
  environments: { fields: EnvironmentFields; scenarios: ScenarioFields[] }[],
  options: { testRatio?: number } = {},
) {
  const project = await createTestProject(db, name);
  const scenarios = [];
  for (const e of environments) {
    const env = await createEnvironment(db, project.id, e.fields);
    for (const fields of e.scenarios) scenarios.push(await createScenario(db, env.id, fields));
  }
  await acceptAndProveScenarios(db, project.id);
  const version = await createDatasetVersion(db, { projectId: project.id, name, ...options });
  return { project, scenarios, versionId: version.id };
}
