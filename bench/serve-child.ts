/**
 * BENCH ONLY. `envstudio serve`'s stack (startEnvServer + a sandbox runner) in its own process,
 * serving one scenario from a file instead of a dataset in the database, so the serve bench can
 * measure its memory apart from the load generator. Sandbox options as `envstudio serve` sets
 * them; backend and pool from SANDBOX_* variables.
 * Usage: tsx bench/serve-child.ts <scenario.json>   (prints {"port": N} once listening)
 * The scenario file is [source, className, initialState, checks, task].
 */
import { readFileSync } from "node:fs";
import { sandboxSessionCeiling, serveSandboxOptions, startEnvServer } from "../lib/envserver/start-server";
import { createSandboxRunner, resolveOptions } from "../lib/sandbox";

type ScenarioFile = [string, string, Record<string, unknown>, string[], string];

const [source, className, initialState, checks, task] = JSON.parse(
  readFileSync(process.argv[2] ?? "", "utf8"),
) as ScenarioFile;
// As `envstudio serve` does, with the session limit of the bench (SANDBOX_POOL_SIZE).
const options = resolveOptions(serveSandboxOptions(Number(process.env.SANDBOX_POOL_SIZE ?? 32)));
const sandbox = createSandboxRunner(options);
const tools = await sandbox.extractTools(source, className);
if (!tools.ok) throw new Error(tools.error.message);
const catalog = {
  name: "bench",
  scenarios: [
    {
      id: "bench/t1",
      envId: "bench",
      taskId: "t1",
      task,
      source,
      className,
      tools: tools.value,
      initialState,
      checks,
    },
  ],
};
const server = await startEnvServer(catalog, sandbox, {
  port: 0,
  host: "127.0.0.1",
  maxSessions: options.poolSize,
  sandboxWorkers: sandboxSessionCeiling(options, options.poolSize),
  maxSteps: 1000,
  idleMs: 600_000,
});
console.log(JSON.stringify({ port: server.port, backend: sandbox.backend }));
process.once(
  "SIGTERM",
  () =>
    void server
      .stop()
      .then(() => sandbox.close())
      .then(() => process.exit(0)),
);
