/**
 * Flags of `envstudio pipeline run`, parsed and checked before anything touches the database:
 * missing or unreadable files and malformed task files fail with one clear line.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import type { RunInput } from "../pipeline/pipeline.schema";
import { type RunConfigOverrides, parseModelsFlag } from "../pipeline/run-config";
import { parseIdeas, parseTaskFile } from "../pipeline/task-file";
import { type FlagSpec, UsageError, numberFlag, parseFlags, stringFlag } from "./cli-flags";

export const PIPELINE_USAGE = [
  "usage:",
  "  envstudio pipeline run (--ideas ideas.txt | --tasks tasks.jsonl [--text-field F]) [--models M | --models stage=M,...]",
  "                         [--rounds N] [--max-tokens N] [--max-cost USD] [--name NAME] [--no-worker] [--db-wait SECONDS]",
  "  --no-worker: only enqueue and follow progress (workers started with `npm run worker` do the work)",
  "  --db-wait: how long to keep retrying while the database is unreachable before giving up following (default 300)",
].join("\n");

export type PipelineRunArgs = {
  input: RunInput;
  overrides: RunConfigOverrides;
  name?: string;
  inProcessWorker: boolean;
  dbWaitMs: number;
};

export const DEFAULT_DB_WAIT_SECONDS = 300;

function readInputFile(flag: string, file: string): string {
  if (!existsSync(file)) throw new UsageError(`${flag}: file not found: ${file}`);
  if (!statSync(file).isFile()) throw new UsageError(`${flag}: not a file: ${file}`);
  return readFileSync(file, "utf8");
}

const POSITIVE = { min: 0, exclusiveMin: true } as const;
const POSITIVE_INTEGER = { ...POSITIVE, integer: true } as const;

export const PIPELINE_RUN_FLAGS = {
  strings: ["ideas", "tasks", "text-field", "models", "rounds", "max-tokens", "max-cost", "name", "db-wait"],
  booleans: ["no-worker"],
} as const satisfies FlagSpec;

/** Throws `UsageError` (without the usage text: runPipelineCommand adds PIPELINE_USAGE). */
export function parsePipelineRunArgs(argv: string[]): PipelineRunArgs {
  const { values } = parseFlags(argv, PIPELINE_RUN_FLAGS);
  const ideas = stringFlag(values, "ideas");
  const tasks = stringFlag(values, "tasks");
  if (!ideas === !tasks) throw new UsageError("give exactly one of --ideas FILE or --tasks FILE");
  let input: RunInput;
  if (ideas) {
    const list = parseIdeas(readInputFile("--ideas", ideas));
    if (list.length === 0) throw new UsageError(`--ideas: ${ideas} has no ideas (one per line)`);
    input = { kind: "ideas", ideas: list };
  } else {
    const parsed = parseTaskFile(readInputFile("--tasks", tasks!), stringFlag(values, "text-field"));
    if (!parsed.ok) throw new UsageError(`--tasks: ${tasks}: ${parsed.error.message}`);
    input = { kind: "tasks", tasks: parsed.value.tasks, fileName: tasks };
  }
  let models;
  try {
    const flag = stringFlag(values, "models");
    models = flag ? parseModelsFlag(flag) : undefined;
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  const overrides: RunConfigOverrides = {
    ...(models ? { models } : {}),
    ...(values.rounds ? { qualityRounds: numberFlag(values, "rounds", POSITIVE_INTEGER) } : {}),
    maxTokens: numberFlag(values, "max-tokens", POSITIVE_INTEGER) ?? null,
    maxCostUsd: numberFlag(values, "max-cost", POSITIVE) ?? null,
  };
  const dbWait = numberFlag(values, "db-wait", POSITIVE) ?? DEFAULT_DB_WAIT_SECONDS;
  return {
    input,
    overrides,
    name: stringFlag(values, "name"),
    inProcessWorker: !values["no-worker"],
    dbWaitMs: dbWait * 1000,
  };
}
