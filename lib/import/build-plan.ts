/**
 * Cross-checks the records and builds the ImportPlan. Code is checked by the sandbox's `analyze`
 * (parsed with `ast`, never executed): a syntax error or a missing class is reported at the line
 * inside the class code. Tool schemas are the analysis's; a file's own `tools` only produce
 * warnings where they disagree (import-tools.ts). Nothing is written here.
 */
import { type Result, err, ok } from "../core/result";
import type { ImportEnvItem, ImportError, ImportPlan, ImportScenario, ImportWarning } from "./import.schema";
import { toolDisagreements, toolNameProblem } from "./import-tools";

export type AnalyzeFn = (
  source: string,
  className: string,
) => Promise<
  Result<
    { syntaxErrors: { message: string; line: number }[]; classFound: boolean; tools: unknown[] },
    { message: string }
  >
>;

export type PlanSources = {
  envFile: string;
  scenarioFile: string;
  envs: ImportEnvItem[];
  scenarios: ImportScenario[];
  envLines?: number[];
  scenarioLines?: number[];
};

type PlannedEnvironment = { env: ImportPlan["environments"][number]; warnings: ImportWarning[] };

const SLUG = /[^a-z0-9@._-]+/g;
export const slugOf = (envId: string) =>
  envId
    .toLowerCase()
    .replace(SLUG, "-")
    .replace(/^-+|-+$/g, "") || "env";

/** The file's tools refused (a name that is not a Python name) or compared with the code's. */
function checkTools(
  item: ImportEnvItem,
  codeTools: unknown[],
  at: { file: string; line?: number; record: string },
): Result<ImportWarning[], ImportError> {
  const code = toolNameProblem(codeTools);
  if (code) return err({ ...at, field: "env_class_code", message: `code defines a ${code.message}` });
  if (!item.tools) return ok([]);
  const file = toolNameProblem(item.tools);
  if (file) return err({ ...at, field: `tools.${file.field}`, message: file.message });
  return ok(
    toolDisagreements(item.tools, codeTools, item.env_class_name).map((d) => ({
      ...at,
      field: d.index === null ? "tools" : `tools.${d.index}`,
      message: d.message,
    })),
  );
}

async function planEnvironment(
  item: ImportEnvItem,
  file: string,
  line: number | undefined,
  analyze: AnalyzeFn,
): Promise<Result<PlannedEnvironment, ImportError>> {
  const analysis = await analyze(item.env_class_code, item.env_class_name);
  const at = { file, line, record: item.env_id, field: "env_class_code" };
  if (!analysis.ok) return err({ ...at, message: `could not analyse the code: ${analysis.error.message}` });
  const [syntax] = analysis.value.syntaxErrors;
  if (syntax)
    return err({
      ...at,
      line: syntax.line,
      message: `code does not parse: line ${syntax.line} of the class code: ${syntax.message}`,
    });
  if (!analysis.value.classFound)
    return err({
      ...at,
      field: "env_class_name",
      message: `class ${item.env_class_name} is not defined at the top level of env_class_code`,
    });
  const warnings = checkTools(item, analysis.value.tools, { file, line, record: item.env_id });
  if (!warnings.ok) return warnings;
  const ext = item.envstudio ?? {};
  const convention = /^\s+def _load_scenario\(/m.test(item.env_class_code) ? "load_scenario" : "attributes";
  const env = {
    slug: slugOf(item.env_id),
    name: item.environment_summary || item.env_id,
    description: item.environment_introduction,
    domain: ext.domain ?? "general",
    className: item.env_class_name,
    source: item.env_class_code,
    version: ext.version ?? 1,
    tools: analysis.value.tools,
    stateSchema: item.state_space_definition,
    rules: item.constraints_rules,
    operations: item.operation_list,
    metadata: ext.metadata ?? {
      env_id: item.env_id,
      imported: true,
      initial_state_convention: convention,
      ...(item.env_structure ? { env_structure: item.env_structure } : {}),
    },
  };
  return ok({ env, warnings: warnings.value });
}

function planScenario(
  s: ImportScenario,
  index: number,
  file: string,
  envs: Map<string, ImportEnvItem>,
): Result<ImportPlan["scenarios"][number], ImportError> {
  const at = { file, record: String(index) };
  const env = envs.get(s.env_id);
  if (!env)
    return err({
      ...at,
      field: "env_id",
      message: `unknown environment "${s.env_id}" (not in the environment metadata)`,
    });
  if (s.env_class_name && s.env_class_name !== env.env_class_name)
    return err({
      ...at,
      field: "env_class_name",
      message: `is ${s.env_class_name} but environment ${s.env_id} defines ${env.env_class_name}`,
    });
  const bad = s.checklist_with_func.findIndex(
    (c) => !/^def check_func\(\s*final_state\s*\)/m.test(c.check_func),
  );
  if (bad >= 0)
    return err({
      ...at,
      field: `checklist_with_func.${bad}.check_func`,
      message: "must define `def check_func(final_state):`",
    });
  const versions = s.envstudio?.validator_versions ?? [];
  return ok({
    envSlug: slugOf(s.env_id),
    externalId: s.task_id,
    initialState: s.init_config,
    task: s.task,
    checklist: s.checklist ?? s.checklist_with_func.map((c) => c.check_item),
    checks: s.checklist_with_func.map((c, i) => ({
      checkItem: c.check_item,
      code: c.check_func,
      version: versions[i] ?? 1,
    })),
    goldCalls: s.gold_calls ?? null,
  });
}

export async function buildImportPlan(
  src: PlanSources,
  analyze: AnalyzeFn,
): Promise<Result<ImportPlan, ImportError>> {
  const envs = new Map<string, ImportEnvItem>();
  for (const item of src.envs) {
    if (envs.has(item.env_id))
      return err({ file: src.envFile, record: item.env_id, field: "env_id", message: "duplicate env_id" });
    envs.set(item.env_id, item);
  }
  const plan: ImportPlan = { warnings: [], environments: [], scenarios: [] };
  for (const [i, item] of src.envs.entries()) {
    const planned = await planEnvironment(item, src.envFile, src.envLines?.[i], analyze);
    if (!planned.ok) return planned;
    plan.environments.push(planned.value.env);
    plan.warnings.push(...planned.value.warnings);
  }
  const seen = new Set<string>();
  for (const [i, s] of src.scenarios.entries()) {
    const scenario = planScenario(s, i, src.scenarioFile, envs);
    if (!scenario.ok) return err({ ...scenario.error, line: src.scenarioLines?.[i] });
    const key = `${s.env_id}\u0000${s.task_id}`;
    if (seen.has(key))
      return err({
        file: src.scenarioFile,
        line: src.scenarioLines?.[i],
        record: String(i),
        field: "task_id",
        message: `duplicate task_id "${s.task_id}" in environment ${s.env_id}`,
      });
    seen.add(key);
    plan.scenarios.push(scenario.value);
  }
  return ok(plan);
}
