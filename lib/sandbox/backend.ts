/**
 * What the runner needs from a backend: leases of an isolated Python harness that answer one
 * JSON request at a time. Pyodide workers and python3 processes both fit behind it.
 */
import type { Result } from "../core/result";
import type { HarnessRequest, SandboxError } from "./sandbox.schema";

export type { HarnessRequest } from "./sandbox.schema";

export type CallError = SandboxError & { terminated?: boolean };

export interface Lease {
  /** The parsed, still untrusted harness reply; errors here are transport or limit failures. A
   * call may be made before earlier ones are answered (worker sharing pipelines them): they run
   * in order, each under its own deadline. */
  call(request: HarnessRequest, timeoutMs: number): Promise<Result<unknown, CallError>>;
  /** Returns the worker/process; `recycle` discards it (after a limit hit or a crash). `weight`
   * is how much of an episode this lease counts towards the worker's recycling (default 1). */
  release(recycle: boolean, weight?: number): Promise<void>;
}

export type BackendStats = {
  backend: string;
  workers: number;
  readyMs: number[];
  rssBytes: number;
  snapshot: boolean;
};

export interface Backend {
  readonly name: "pyodide" | "bwrap" | "native";
  /**
   * `key` identifies the untrusted code the lease will run (e.g. a source hash): workers are only
   * reused for the same key. `null` means no user code runs (analysis), so any fresh worker does.
   */
  /** `checks`: the lease runs checks (runChecks), which an episode may need while it holds a
   * worker of its own; a bounded pool keeps room for them. */
  lease(key: string | null, waitMs: number, checks?: boolean): Promise<Result<Lease, SandboxError>>;
  stats(): Promise<BackendStats>;
  close(): Promise<void>;
}

export const sandboxError = (
  code: SandboxError["code"],
  message: string,
  retryable = false,
): SandboxError => ({
  code,
  message,
  retryable,
});
