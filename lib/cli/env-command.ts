/**
 * `envstudio env tools|replay`: tool schemas from a source file, and episode replay through the
 * sandbox. Thin: parses flags, calls lib/sandbox, prints JSON.
 */
import { createReadStream, existsSync, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { z } from "zod";
import { type SandboxRunner, createSandboxRunner, replayEpisodes } from "../sandbox";
import type { CliIo } from "./main";

const USAGE = [
  "usage:",
  "  envstudio env tools --source env.py --class Name [--backend pyodide|bwrap]",
  "  envstudio env replay --episodes file.jsonl [--backend pyodide|bwrap] [--concurrency N]",
].join("\n");

const BackendSchema = z.enum(["pyodide", "bwrap"]).optional();

class UsageError extends Error {}

function flags(argv: string[], names: string[]): Record<string, string | undefined> {
  try {
    const { values } = parseArgs({
      args: argv,
      options: Object.fromEntries(names.map((n) => [n, { type: "string" as const }])),
      strict: true,
      allowPositionals: false,
    });
    return values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function required(values: Record<string, string | undefined>, name: string): string {
  const value = values[name];
  if (!value) throw new UsageError(`missing --${name}`);
  return value;
}

function runnerFor(backend: string | undefined, concurrency = 1): SandboxRunner {
  const parsed = BackendSchema.safeParse(backend);
  if (!parsed.success) throw new UsageError(`--backend must be pyodide or bwrap (got ${backend})`);
  return createSandboxRunner({ backend: parsed.data, poolSize: concurrency });
}

async function tools(argv: string[], io: CliIo): Promise<number> {
  const values = flags(argv, ["source", "class", "backend"]);
  const sourcePath = required(values, "source");
  const className = required(values, "class");
  if (!existsSync(sourcePath)) throw new UsageError(`source file not found: ${sourcePath}`);
  const runner = runnerFor(values.backend);
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
  const values = flags(argv, ["episodes", "backend", "concurrency"]);
  const file = required(values, "episodes");
  if (!existsSync(file)) throw new UsageError(`episodes file not found: ${file}`);
  const concurrency = z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .safeParse(values.concurrency ?? "1");
  if (!concurrency.success)
    throw new UsageError(`--concurrency must be an integer from 1 to 64 (got ${values.concurrency})`);
  const runner = runnerFor(values.backend, concurrency.data);
  try {
    const lines = createInterface({ input: createReadStream(file, "utf8"), crlfDelay: Infinity });
    for await (const result of replayEpisodes(runner, lines, concurrency.data))
      io.out(JSON.stringify(result));
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
    io.err(verb ? `envstudio env: unknown command '${verb}'\n${USAGE}` : USAGE);
    return 2;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`envstudio env: ${error.message}\n${USAGE}`);
    return 2;
  }
}
