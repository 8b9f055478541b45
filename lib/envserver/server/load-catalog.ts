import "server-only";
/** A dataset version's scenarios as the environment server serves them (pinned code and validators). */
import { z } from "zod";
import type { Db } from "@/lib/db";
import { getDatasetVersionOrThrow } from "@/lib/datasets/server/find-datasets";
import { loadExportEnvironments, streamExportScenarios } from "@/lib/export/server/load-export-input";
import type { Catalog, ServedScenario } from "../catalog";

export async function loadCatalog(
  db: Db,
  projectId: string,
  datasetName: string,
  version?: number,
): Promise<Catalog> {
  const { version: row } = await getDatasetVersionOrThrow(db, projectId, datasetName, version);
  const envs = await loadExportEnvironments(db, row.id);
  const byId = new Map(envs.map((e) => [e.env.envId, e.env]));
  const scenarios: ServedScenario[] = [];
  for await (const s of streamExportScenarios(db, row.id, envs, false)) {
    const env = byId.get(s.envId);
    if (!env) continue;
    scenarios.push({
      id: `${s.envId}/${s.taskId}`,
      envId: s.envId,
      taskId: s.taskId,
      task: s.task,
      source: env.source,
      className: env.className,
      tools: env.tools,
      initialState: s.initialState,
      checks: s.checks.map((c) => c.code),
      queryTools: queryToolsOf(env.operations),
      split: s.split === "TEST" ? "test" : "train",
    });
  }
  return { name: `${datasetName}@v${row.version}`, scenarios };
}

const OperationsSchema = z.array(
  z.object({ operation_name: z.string(), operation_type: z.string() }).passthrough(),
);

/** The names of the environment's query operations (EnvScaler's query/state_change split). */
function queryToolsOf(operations: unknown): string[] {
  const parsed = OperationsSchema.safeParse(operations);
  return parsed.success
    ? parsed.data.filter((o) => o.operation_type === "query").map((o) => o.operation_name)
    : [];
}
