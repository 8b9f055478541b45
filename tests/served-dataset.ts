/**
 * TEST ONLY. The sample environments seeded into a project (tools from the sandbox's analysis),
 * accepted and proven, and made into the dataset "served": what `envstudio serve` and
 * `envstudio mcp` tests serve.
 */
import type { Db } from "@/lib/db";
import { createDatasetVersion } from "@/lib/datasets/server/create-dataset-version";
import type { SandboxRunner } from "@/lib/sandbox";
import { acceptAndProveScenarios } from "@/prisma/seed/factories";
import type { loadSamples } from "@/prisma/seed/load-samples";
import { seedSamples } from "@/prisma/seed/seed-samples";

export async function seedServedDataset(
  db: Db,
  sandbox: SandboxRunner,
  projectId: string,
  samples: ReturnType<typeof loadSamples>,
): Promise<void> {
  await seedSamples(db, {
    projectId,
    samples,
    toolsFor: async (s) => {
      const r = await sandbox.extractTools(s.source, s.meta.env_class_name);
      return r.ok ? r.value : [];
    },
  });
  await acceptAndProveScenarios(db, projectId);
  await createDatasetVersion(db, { projectId, name: "served", seed: 1 });
}
