/** The scenarios a server offers, loaded once at start (from a dataset) and looked up per reset. */
import { seededRandom } from "../datasets/split";

export type ServedScenario = {
  /** `env_id/task_id`: unique across the dataset. */
  id: string;
  envId: string;
  taskId: string;
  task: string;
  source: string;
  className: string;
  tools: {
    type: "function";
    function: { name: string; description: string; parameters: Record<string, unknown> };
  }[];
  initialState: Record<string, unknown>;
  checks: string[];
  /** Tools that only read the state (EnvScaler's query operations): MCP's readOnlyHint. */
  queryTools?: string[];
};

export type Catalog = { name: string; scenarios: ServedScenario[] };

/** By full id, by task_id when unambiguous, or by seed (reproducible), else the first. */
export function pickScenario(
  catalog: Catalog,
  request: { scenarioId?: string; seed?: number },
): ServedScenario | null {
  const all = catalog.scenarios;
  if (request.scenarioId !== undefined) {
    const exact = all.find((s) => s.id === request.scenarioId);
    if (exact) return exact;
    const byTask = all.filter((s) => s.taskId === request.scenarioId);
    return byTask.length === 1 ? (byTask[0] ?? null) : null;
  }
  if (all.length === 0) return null;
  const index =
    request.seed === undefined
      ? Math.floor(Math.random() * all.length)
      : Math.floor(seededRandom(request.seed)() * all.length);
  return all[index] ?? null;
}
