/**
 * OpenEnv's Task API, so that a trainer can enumerate a served dataset's scenarios by split and
 * pick one by index: the routes and shapes of huggingface/OpenEnv
 * src/openenv/core/env_server/http_server.py (`list_environments`, `/{env}/splits`, `tasks`,
 * `num_tasks`, `task`, `task_range`; the same at commits dac82c6c and 434bb1dc), with FastAPI's
 * error bodies (`{"detail": …}`). The environment's name is the catalog's (case-insensitive, as
 * upstream compares it). Splits are the dataset's: `train` and `test`, each in the dataset's order;
 * a task is `{id, index, split, env_id, task_id, task}`, and `POST /reset {"split", "index"}`
 * starts that task's episode (catalog.ts, pickScenario).
 */
import { z } from "zod";
import { type Catalog, type ServedScenario, type SplitName, scenariosOfSplit } from "./catalog";

export type TaskApiAnswer = [status: number, body: unknown];

const SplitBody = z.object({ split: z.string() }).strict();
const TaskBody = z.object({ split: z.string(), index: z.number().int() }).strict();
const RangeBody = z
  .object({ split: z.string(), start: z.number().int().nullish(), stop: z.number().int().nullish() })
  .strict();

const OPERATIONS = {
  splits: "GET",
  tasks: "POST",
  num_tasks: "POST",
  task: "POST",
  task_range: "POST",
} as const;
type Operation = keyof typeof OPERATIONS;

/** The Task API route a request is for, if any: `/list_environments` or `/<env>/<operation>`. */
export function matchTaskRoute(
  method: string | undefined,
  pathname: string,
): { env?: string; operation: Operation | "list_environments" } | null {
  if (pathname === "/list_environments") return method === "GET" ? { operation: "list_environments" } : null;
  const m = /^\/([^/]+)\/(splits|tasks|num_tasks|task|task_range)$/.exec(pathname);
  if (!m?.[1] || !m[2]) return null;
  const operation = m[2] as Operation;
  if (OPERATIONS[operation] !== method) return null;
  try {
    return { env: decodeURIComponent(m[1]), operation };
  } catch {
    return null;
  }
}

/** Python's repr of a str, as upstream's `{env_name!r}` writes it. */
const pyRepr = (s: string) =>
  s.includes("'") && !s.includes('"') ? `"${s}"` : `'${s.replace(/'/g, "\\'")}'`;

/** A body that does not fit: 422 in FastAPI's shape (`detail[]` of {type, loc, msg, input}). */
function unprocessable(error: z.ZodError, input: unknown): TaskApiAnswer {
  const detail = error.issues.map((issue) => {
    const loc = ["body", ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))];
    if (issue.code === "unrecognized_keys")
      return issue.keys.map((key) => ({
        type: "extra_forbidden",
        loc: [...loc, key],
        msg: "Extra inputs are not permitted",
        input: (input as Record<string, unknown>)[key],
      }));
    const value = issue.path.reduce<unknown>(
      (at, key) => (at && typeof at === "object" ? (at as Record<PropertyKey, unknown>)[key] : undefined),
      input,
    );
    if (value === undefined) return [{ type: "missing", loc, msg: "Field required", input }];
    const type = issue.code === "invalid_type" && issue.expected === "string" ? "string_type" : "int_type";
    return [{ type, loc, msg: issue.message, input: value }];
  });
  return [422, { detail: detail.flat() }];
}

export function taskSpec(scenario: ServedScenario, split: SplitName, index: number) {
  return {
    id: scenario.id,
    index,
    split,
    env_id: scenario.envId,
    task_id: scenario.taskId,
    task: scenario.task,
  };
}

/** Python's slice bounds (`list[start:stop]`): negatives count from the end, both clamp. */
function sliceBounds(length: number, start: number | null | undefined, stop: number | null | undefined) {
  const at = (i: number) => (i < 0 ? Math.max(0, length + i) : Math.min(i, length));
  return [start == null ? 0 : at(start), stop == null ? length : at(stop)] as const;
}

export function answerTaskApi(
  catalog: Catalog,
  route: NonNullable<ReturnType<typeof matchTaskRoute>>,
  body: unknown,
): TaskApiAnswer {
  if (route.operation === "list_environments") return [200, [catalog.name]];
  if (route.env?.toLowerCase() !== catalog.name.toLowerCase())
    return [404, { detail: `unknown environment ${pyRepr(route.env ?? "")}` }];
  const splits = (["train", "test"] as const).filter((s) => scenariosOfSplit(catalog, s).length > 0);
  if (route.operation === "splits") return [200, splits.map((name) => ({ name, type: name }))];

  const schema =
    route.operation === "task" ? TaskBody : route.operation === "task_range" ? RangeBody : SplitBody;
  const parsed = schema.safeParse(body);
  if (!parsed.success) return unprocessable(parsed.error, body);
  const { split } = parsed.data;
  if (split !== "train" && split !== "test")
    return [
      400,
      { detail: `Invalid split ${pyRepr(split)}: this dataset's splits are ${splits.join(", ")}` },
    ];
  const scenarios = scenariosOfSplit(catalog, split);
  const specs = (from: number, to: number) =>
    scenarios.slice(from, to).map((s, i) => taskSpec(s, split, from + i));

  switch (route.operation) {
    case "tasks":
      return [200, { tasks: specs(0, scenarios.length), env_name: catalog.name }];
    case "num_tasks":
      return [200, { num_tasks: scenarios.length }];
    case "task": {
      const { index } = parsed.data as z.infer<typeof TaskBody>;
      const scenario = index >= 0 ? scenarios[index] : undefined;
      if (!scenario) return [400, { detail: "Invalid task index" }];
      return [200, { task: taskSpec(scenario, split, index) }];
    }
    case "task_range": {
      const { start, stop } = parsed.data as z.infer<typeof RangeBody>;
      const [from, to] = sliceBounds(scenarios.length, start, stop);
      return [200, { tasks: from < to ? specs(from, to) : [] }];
    }
  }
}
