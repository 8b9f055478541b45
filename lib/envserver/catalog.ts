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
  /** The dataset split the scenario is in; absent means train. */
  split?: SplitName;
};

export type SplitName = "train" | "test";
export type Catalog = { name: string; scenarios: ServedScenario[] };

const bySplit = new WeakMap<Catalog, Record<SplitName, ServedScenario[]>>();

/** A split's scenarios in the dataset's order (indexed by the Task API and by reset's `index`). */
export function scenariosOfSplit(catalog: Catalog, split: SplitName): ServedScenario[] {
  let splits = bySplit.get(catalog);
  if (!splits) {
    splits = { train: [], test: [] };
    for (const s of catalog.scenarios) splits[s.split ?? "train"].push(s);
    bySplit.set(catalog, splits);
  }
  return splits[split];
}

/** By full id, by task_id when unambiguous, by split and index (the Task API's), or by seed
 * (reproducible), else at random. */
export function pickScenario(
  catalog: Catalog,
  request: { scenarioId?: string; seed?: number; split?: SplitName; index?: number },
): ServedScenario | null {
  const all = catalog.scenarios;
  if (request.split !== undefined && request.index !== undefined)
    return scenariosOfSplit(catalog, request.split)[request.index] ?? null;
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
