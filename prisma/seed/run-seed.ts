/**
 * Seeds the default project with the sample environments. Tool schemas are extracted from each
 * sample's source by the sandbox (Python's ast, never in this process).
 */
import type { Db } from "../../lib/db";
import { getDefaultProject } from "../../lib/projects/server/get-default-project";
import { loadSamples } from "./load-samples";
import { seedSamples, type ToolsFor } from "./seed-samples";

export async function seedDatabase(db: Db, toolsFor: ToolsFor): Promise<string[]> {
  const project = await getDefaultProject(db);
  return seedSamples(db, { projectId: project.id, samples: loadSamples(), toolsFor });
}
