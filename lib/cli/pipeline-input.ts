/**
 * Flags of `envstudio pipeline run`, parsed and checked before anything touches the database:
 * missing or unreadable files and malformed task files fail with one clear line.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { parseArgs } from "node:util";
import { z } from "zod";
import type { RunInput } from "../pipeline/pipeline.schema";
import { type RunConfigOverrides, parseModelsFlag } from "../pipeline/run-config";
import { parseIdeas, parseTaskFile } from "../pipeline/task-file";

export class UsageError extends Error {}

export const PIPELINE_USAGE = [
  "usage:",
  "  envstudio pipeline run (--ideas ideas.txt | --tasks tasks.jsonl [--text-field F]) [--models M | --models stage=M,...]",
  "                         [--rounds N] [--max-tokens N] [--max-cost USD] [--name NAME] [--no-worker] [--db-wait SECONDS]",
  "  --no-worker: only enqueue and follow progress (workers started with `npm run worker` do the work)",
  "  --db-wait: how long to keep retrying while the database is unreachable before giving up following (default 300)",
].join("\n");

export type PipelineRunArgs = { input: RunInput; overrides: RunConfigOverrides; name?: string; inProcessWorker: boolean; dbWaitMs: number };

export const DEFAULT_DB_WAIT_SECONDS = 300;

function readInputFile(flag: string, file: string): string {
  if (!existsSync(file)) throw new UsageError(`${flag}: file not found: ${file}`);
  if (!statSync(file).isFile()) throw new UsageError(`${flag}: not a file: ${file}`);
  return readFileSync(file, "utf8");
}

const positive = (flag: string, value: string | undefined, int: boolean) => {
  if (value === undefined) return undefined;
  const parsed = (int ? z.coerce.number().int() : z.coerce.number()).positive().safeParse(value);
  if (!parsed.success) throw new UsageError(`${flag} must be a positive ${int ? "integer" : "number"} (got ${value})`);
  return parsed.data;
};

export function parsePipelineRunArgs(argv: string[]): PipelineRunArgs {
  let values: Record<string, string | boolean | undefined>;
  try {
    const strings = ["ideas", "tasks", "text-field", "models", "rounds", "max-tokens", "max-cost", "name", "db-wait"].map((n) => [n, { type: "string" as const }]);
    const options = { ...(Object.fromEntries(strings) as Record<string, { type: "string" }>), "no-worker": { type: "boolean" as const } };
    values = parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const ideas = values.ideas as string | undefined;
  const tasks = values.tasks as string | undefined;
  if (!ideas === !tasks) throw new UsageError("give exactly one of --ideas FILE or --tasks FILE");
  let input: RunInput;
  if (ideas) {
    const list = parseIdeas(readInputFile("--ideas", ideas));
    if (list.length === 0) throw new UsageError(`--ideas: ${ideas} has no ideas (one per line)`);
    input = { kind: "ideas", ideas: list };
  } else {
    const parsed = parseTaskFile(readInputFile("--tasks", tasks!), values["text-field"] as string | undefined);
    if (!parsed.ok) throw new UsageError(`--tasks: ${tasks}: ${parsed.error.message}`);
    input = { kind: "tasks", tasks: parsed.value.tasks, fileName: tasks };
  }
  let models;
  try {
    models = values.models ? parseModelsFlag(values.models as string) : undefined;
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  const overrides: RunConfigOverrides = {
    ...(models ? { models } : {}),
    ...(values.rounds ? { qualityRounds: positive("--rounds", values.rounds as string, true) } : {}),
    maxTokens: positive("--max-tokens", values["max-tokens"] as string | undefined, true) ?? null,
    maxCostUsd: positive("--max-cost", values["max-cost"] as string | undefined, false) ?? null,
  };
  const dbWait = positive("--db-wait", values["db-wait"] as string | undefined, false) ?? DEFAULT_DB_WAIT_SECONDS;
  return { input, overrides, name: values.name as string | undefined, inProcessWorker: !values["no-worker"], dbWaitMs: dbWait * 1000 };
}
