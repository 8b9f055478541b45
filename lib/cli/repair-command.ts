/**
 * `envstudio repair`: a REPAIR run over the failing items of a dataset version, an environment or
 * one scenario (failing and weak scenarios, and environments whose code failed quality probes). Everything that could be bad input (flags, an unknown dataset/env/scenario, an item
 * that is not failing, a budget of 0, no endpoint) is refused before the run is written or any LLM
 * request sent. The run is the same as the studio's button makes; the command executes it in this
 * process (like `import` proves what it imported), waits for it and prints the summary last.
 */
import { type FlagSpec, UsageError, WHOLE_NUMBER, numberFlag, parseFlags, stringFlag } from "./cli-flags";
import type { CliIo } from "./cli-io";
import { openProject } from "./open-project";

export const REPAIR_FLAGS = {
  strings: ["dataset", "version", "env", "scenario", "max-cost", "model", "concurrency"],
} as const satisfies FlagSpec;

type Target =
  | { kind: "scenario"; scenarioId: string }
  | { kind: "environment"; slug: string }
  | { kind: "dataset"; name: string; version?: number };

function targetOf(values: Record<string, string | boolean | undefined>): Target {
  const dataset = stringFlag(values, "dataset");
  const env = stringFlag(values, "env");
  const scenario = stringFlag(values, "scenario");
  const given = [dataset, env, scenario].filter((v) => v !== undefined).length;
  if (given !== 1) throw new UsageError("name exactly one of --dataset NAME, --env ENV_ID or --scenario ID");
  const version = numberFlag(values, "version", { ...WHOLE_NUMBER, min: 1 });
  if (version !== undefined && !dataset) throw new UsageError("--version goes with --dataset");
  if (dataset) return { kind: "dataset", name: dataset, version };
  if (env) return { kind: "environment", slug: env };
  return { kind: "scenario", scenarioId: scenario ?? "" };
}

export const formatUsd = (usd: number) => `$${usd.toFixed(usd > 0 && usd < 0.01 ? 6 : 4)}`;

export async function runRepairCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags(argv, REPAIR_FLAGS);
  const target = targetOf(values);
  const maxCostUsd = numberFlag(values, "max-cost", {
    min: 0,
    exclusiveMin: true,
    what: "a positive number of USD",
  });
  const concurrency = numberFlag(values, "concurrency", { integer: true, min: 1, max: 16 });
  const { getLlmConfig } = await import("../llm");
  const llm = getLlmConfig();
  if (!llm.baseUrl) {
    io.err(
      "envstudio repair: OPENAI_BASE_URL is not set: configure an OpenAI-compatible endpoint (nothing was done)",
    );
    return 1;
  }
  const model = stringFlag(values, "model") ?? llm.defaultModel;
  const { db, projectId, close } = await openProject();
  const [{ createSandboxRunner }, selection, run, { createRunLlmFactory }] = await Promise.all([
    import("../sandbox"),
    import("../repair/server/select-repair-items"),
    import("../repair/server/repair-run"),
    import("../runs/server/run-llm"),
  ]);
  try {
    const picked = await selection.selectRepairItems(db, projectId, target);
    const items = picked.scenarioIds.length + picked.environmentIds.length;
    if (items === 0) {
      // One named environment with nothing to repair is a mistake like a scenario that is not
      // failing; a dataset version with nothing failing is a finding.
      if (target.kind === "environment") {
        io.err(`envstudio repair: nothing to repair: ${selection.nothingFailing(picked.label)}`);
        return 1;
      }
      io.out(`nothing to repair: ${selection.nothingFailing(picked.label)}`);
      return 0;
    }
    // No queue: this process executes the run itself, as `import` proves what it imported.
    const row = await run.enqueueRepairRun(db, () => Promise.resolve(null), {
      projectId,
      scenarioIds: picked.scenarioIds,
      environmentIds: picked.environmentIds,
      environmentId: picked.environmentId,
      datasetVersionId: picked.datasetVersionId,
      config: { model, ...(concurrency ? { concurrency } : {}) },
      maxCostUsd: maxCostUsd ?? null,
      label: picked.label,
    });
    const envs = picked.environmentIds.length
      ? ` (the code of ${picked.environmentIds.length} environment(s))`
      : "";
    io.out(`run ${row.id}: repairing ${items} item(s)${envs} of ${picked.label} with ${model}`);
    const sandbox = createSandboxRunner();
    try {
      await run.executeRepairRun(
        db,
        row.id,
        { sandbox, llmFor: createRunLlmFactory(db) },
        { finalAttempt: true },
      );
    } finally {
      await sandbox.close();
    }
    const s = await run.summarizeRepairRun(db, row.id);
    if (s.errorMessage) io.err(`run ${s.status.toLowerCase()}: ${s.errorMessage}`);
    io.out(
      `repair ${s.status.toLowerCase()}: ${s.itemsTried} item(s) tried${s.environmentsTried ? ` (${s.environmentsTried} environment(s))` : ""}, ${s.proven} proposal(s) proven, ${s.failed} proposal(s) failed` +
        `${s.stepsFailed ? `, ${s.stepsFailed} item(s) without a proposal` : ""}, cost ${formatUsd(s.costUsd)}` +
        `${s.proven ? "; review the proven ones in the queue (/review?kind=repair)" : ""}`,
    );
    return 0;
  } finally {
    await close();
  }
}
