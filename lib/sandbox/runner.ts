/**
 * SandboxRunner: the one object other domains use to run generated Python. Backend-agnostic;
 * every input is parsed with zod and every failure is a typed SandboxError Result.
 */
import type { Result } from "../core/result";
import type { Backend, BackendStats } from "./backend";
import type { Episode } from "./episode";
import type { SandboxOptions } from "./options";
import { analyzeWith, spliceWith, toolsOf } from "./runner-analyze";
import { runChecksBatchWith, runChecksWith } from "./runner-checks";
import { type LoadRequest, createEpisodeLoader } from "./runner-load";
import { createRunnerLeases } from "./runner-leases";
import type {
  Analysis,
  CheckResult,
  RunChecksBatchInput,
  RunChecksInput,
  SandboxError,
  Splice,
  SpliceInput,
  Tool,
} from "./sandbox.schema";

export type { LoadRequest } from "./runner-load";

export interface SandboxRunner {
  readonly backend: "pyodide" | "bwrap" | "native";
  /** Leases a worker and instantiates the environment for one episode. */
  load(request: LoadRequest): Promise<Result<Episode, SandboxError>>;
  /** Parses the source (never runs it): syntax errors, class, methods, forbidden imports, tools. */
  analyze(request: { source: string; className: string }): Promise<Result<Analysis, SandboxError>>;
  extractTools(source: string, className: string): Promise<Result<Tool[], SandboxError>>;
  /** Replaces whole definitions of a source with a repair patch's (parsed, never run). */
  splice(request: SpliceInput): Promise<Result<Splice, SandboxError>>;
  /** Check functions over arbitrary states, without an environment. */
  runChecks(request: RunChecksInput): Promise<Result<CheckResult[], SandboxError>>;
  /** The same checks over many state pairs, results in case order; each case's results are what
   * `runChecks` would give it. A batch that hits a limit is rerun case by case, and a case that
   * hits one alone (a check looping past the deadline) gets that error as each check's result. */
  runChecksBatch(request: RunChecksBatchInput): Promise<Result<CheckResult[][], SandboxError>>;
  stats(): Promise<BackendStats>;
  close(): Promise<void>;
}

/**
 * A runner over one backend: leases (runner-leases.ts), episode loading (runner-load.ts), source
 * analysis (runner-analyze.ts) and check runs (runner-checks.ts) share its workers.
 */
export function createRunnerWithBackend(backend: Backend, options: SandboxOptions): SandboxRunner {
  const leases = createRunnerLeases(backend, options);
  const runChecks = (request: RunChecksInput, use: "checks" | "shared-checks" = "checks") =>
    runChecksWith(leases, options, request, use);
  const analyze = (request: { source: string; className: string }) => analyzeWith(leases, options, request);
  return {
    backend: backend.name,
    load: createEpisodeLoader(leases, options, runChecks),
    analyze,
    async extractTools(source, className) {
      const analysis = await analyze({ source, className });
      return analysis.ok ? toolsOf(analysis.value, className) : analysis;
    },
    splice: (request) => spliceWith(leases, options, request),
    runChecks: (request) => runChecks(request),
    runChecksBatch: (request) => runChecksBatchWith(leases, options, request),
    stats: () => backend.stats(),
    close: () => backend.close(),
  };
}
