/**
 * `envstudio env tools|replay`: tool schemas from a source file, and episode replay through the
 * sandbox. Thin: parses flags, calls lib/sandbox, prints JSON.
 */
import { createReadStream, existsSync, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { type SandboxRunner, createSandboxRunner, replayEpisodes, replayRunnerOptions } from "../sandbox";
import {
  type FlagSpec,
  type Flags,
  UsageError,
  choiceFlag,
  numberFlag,
  parseFlags,
  requiredString,
} from "./cli-flags";
import type { CliIo } from "./cli-io";

const USAGE = [
  "usage:",
  "  envstudio env tools --source env.py --class Name [--backend pyodide|bwrap]",
  "  envstudio env replay --episodes file.jsonl [--backend pyodide|bwrap] [--concurrency N]",
].join("\n");

const BACKENDS = ["pyodide", "bwrap"] as const;
export const ENV_TOOLS_FLAGS = { strings: ["source", "class", "backend"] } as const satisfies FlagSpec;
export const ENV_REPLAY_FLAGS = {
  strings: ["episodes", "backend", "concurrency"],
} as const satisfies FlagSpec;

function runnerFor(values: Flags["values"], concurrency = 1): SandboxRunner {
  return createSandboxRunner({
    backend: choiceFlag(values, "backend", BACKENDS),
    ...replayRunnerOptions(concurrency),
  });
}

async function tools(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags(argv, ENV_TOOLS_FLAGS);
  const sourcePath = requiredString(values, "source");
  const className = requiredString(values, "class");
  if (!existsSync(sourcePath)) throw new UsageError(`source file not found: ${sourcePath}`);
  const runner = runnerFor(values);
  try {
    const result = await runner.extractTools(readFileSync(sourcePath, "utf8"), className);
    if (!result.ok) {
      io.err(`envstudio env tools: ${result.error.code}: ${result.error.message}`);
      return 1;
    }
    io.out(JSON.stringify(result.value, null, 2));
    return 0;
  } finally {
    await runner.close();
  }
}

async function replay(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags(argv, ENV_REPLAY_FLAGS);
  const file = requiredString(values, "episodes");
  if (!existsSync(file)) throw new UsageError(`episodes file not found: ${file}`);
  const concurrency = numberFlag(values, "concurrency", { integer: true, min: 1, max: 64 }) ?? 1;
  const runner = runnerFor(values, concurrency);
  try {
    const lines = createInterface({ input: createReadStream(file, "utf8"), crlfDelay: Infinity });
    for await (const result of replayEpisodes(runner, lines, concurrency)) io.out(JSON.stringify(result));
    return 0;
  } finally {
    await runner.close();
  }
}

export async function runEnvCommand(argv: string[], io: CliIo): Promise<number> {
  const [verb, ...rest] = argv;
  try {
    if (verb === "tools") return await tools(rest, io);
    if (verb === "replay") return await replay(rest, io);
  } catch (error) {
    // Flag mistakes show this group's full usage rather than its one help line.
    if (error instanceof UsageError && !error.usage) throw new UsageError(error.message, USAGE);
    throw error;
  }
  throw new UsageError(verb ? `unknown command '${verb}'` : "missing command (tools or replay)", USAGE);
}
