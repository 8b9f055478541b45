import "server-only";
/**
 * Public entry of the sandbox domain: run LLM-written Python environments and check functions
 * isolated from the server (it spawns the sandbox host, so it is server-only). See docs/sandbox.md.
 * Code a page or a client component can reach — schemas, their types — imports the client-safe
 * `./sandbox.schema` instead; types of the runner are imported from here with `import type`.
 */
import type { Backend } from "./backend";
import { type SandboxOptions, resolveOptions } from "./options";
import { createProcessBackend } from "./process-backend";
import { createPyodideBackend } from "./pyodide-backend";
import { type SandboxRunner, createRunnerWithBackend } from "./runner";

export type { Episode, StepResult } from "./episode";
export type { LoadRequest, SandboxRunner } from "./runner";
export type { BackendStats } from "./backend";
export { SANDBOX_ENV_VARS, type SandboxOptions, resolveOptions } from "./options";
export * from "./sandbox.schema";
export { UserSlots, userSandboxSlots } from "./user-slots";

/** A runner for the configured backend (env `SANDBOX_*`, then `options`). Throws only for bad
 * configuration (e.g. bwrap requested but unusable); runtime failures are Results. */
export function createSandboxRunner(options: Partial<SandboxOptions> = {}): SandboxRunner {
  const resolved = resolveOptions(options);
  const backend: Backend =
    resolved.backend === "bwrap" ? createProcessBackend(resolved, "bwrap") : createPyodideBackend(resolved);
  return createRunnerWithBackend(backend, resolved);
}

let shared: SandboxRunner | null = null;

/** The process-wide runner (one sandbox host per server/worker process). */
export function getSandboxRunner(): SandboxRunner {
  shared ??= createSandboxRunner();
  return shared;
}

/** Closes the process-wide runner, e.g. on shutdown. */
export async function closeSandboxRunner(): Promise<void> {
  const current = shared;
  shared = null;
  await current?.close();
}

export { type ReplayResult, replayEpisodes, replayRunnerOptions } from "./replay";
