/**
 * SandboxRunner: the one object other domains use to run generated Python. Backend-agnostic;
 * every input is parsed with zod and every failure is a typed SandboxError Result.
 */
import { createHash } from "node:crypto";
import { type Result, err, ok } from "../core/result";
import type { Backend, BackendStats, Lease } from "./backend";
import { type Episode, createEpisode } from "./episode";
import type { SandboxOptions } from "./options";
import { recoveringLease } from "./recovering-lease";
import { createWorkerSharing } from "./shared-workers";
import { sourceOnDemand } from "./source-on-demand";
import { parseReply } from "./replies";
import {
  type Analysis,
  AnalyzeInputSchema,
  AnalyzeReplySchema,
  type CheckResult,
  ChecksBatchReplySchema,
  ChecksReplySchema,
  LoadInputSchema,
  LoadReplySchema,
  type RunChecksBatchInput,
  RunChecksBatchInputSchema,
  type RunChecksInput,
  RunChecksInputSchema,
  type SandboxError,
  type Tool,
} from "./sandbox.schema";
import { formatZodIssues } from "../core/zod-issues";

export type LoadRequest = {
  source: string;
  className: string;
  initialState: Record<string, unknown>;
  tools?: string[];
  /** The episode's random seed (default 0): its own `random` draws, reproduced by a replay. */
  seed?: number;
};

export interface SandboxRunner {
  readonly backend: "pyodide" | "bwrap" | "native";
  /** Leases a worker and instantiates the environment for one episode. */
  load(request: LoadRequest): Promise<Result<Episode, SandboxError>>;
  /** Parses the source (never runs it): syntax errors, class, methods, forbidden imports, tools. */
  analyze(request: { source: string; className: string }): Promise<Result<Analysis, SandboxError>>;
  extractTools(source: string, className: string): Promise<Result<Tool[], SandboxError>>;
  /** Check functions over arbitrary states, without an environment. */
  runChecks(request: RunChecksInput): Promise<Result<CheckResult[], SandboxError>>;
  /** The same checks over many state pairs, results in case order; each case's results are what
   * `runChecks` would give it. A batch that hits a limit is rerun case by case, and a case that
   * hits one alone (a check looping past the deadline) gets that error as each check's result. */
  runChecksBatch(request: RunChecksBatchInput): Promise<Result<CheckResult[][], SandboxError>>;
  stats(): Promise<BackendStats>;
  close(): Promise<void>;
}

/** Cases per batch call: enough to amortize a call, small enough that a rerun case by case is cheap. */
const CHECK_BATCH_CASES = 64;
/** Sources whose tool schemas the runner keeps (a few MB at most for large classes). */
const KNOWN_TOOLS_ENTRIES = 32;
const invalid = (message: string): SandboxError => ({ code: "INVALID_REQUEST", message, retryable: false });
const hash = (...parts: string[]) => createHash("sha256").update(parts.join("\u0000")).digest("hex");

export function createRunnerWithBackend(backend: Backend, options: SandboxOptions): SandboxRunner {
  // Episodes of one source side by side in a few workers (`envstudio serve`; shared-workers.ts).
  const sharing =
    options.workersPerSource > 0
      ? createWorkerSharing((key, waitMs) => backend.lease(key, waitMs), {
          workersPerSource: options.workersPerSource,
          maxWorkers: options.poolSize,
          maxEpisodesPerWorker: options.maxEpisodesPerWorker,
          unloadTimeoutMs: options.queryTimeoutMs,
        })
      : null;
  // Their episodes' checks, one worker per check set: a submit's checks take ~1 ms, so one worker
  // keeps up with every session of a scenario, and fewer workers share the cores' caches better.
  const checkSharing =
    options.workersPerSource > 0
      ? createWorkerSharing((key, waitMs) => backend.lease(key, waitMs, true), {
          workersPerSource: 1,
          maxWorkers: options.poolSize,
          maxEpisodesPerWorker: options.maxEpisodesPerWorker,
          unloadTimeoutMs: options.queryTimeoutMs,
        })
      : null;

  /** Tool schemas per (source, class): a pure function of the source, so a warm load need not
   * carry them back (55 KB for a 150 KB class). Kept only when no tool was hidden (see load). */
  const knownTools = new Map<string, Tool[]>();

  /** A lease whose episode moves to a fresh worker if its worker or host dies (recovering-lease.ts). */
  async function durableLease(
    key: string | null,
    use: "episode" | "checks" | "shared" | "shared-checks" = "episode",
  ): Promise<Result<Lease, SandboxError>> {
    const pool = use === "shared" ? sharing : use === "shared-checks" ? checkSharing : null;
    const acquire = async () => {
      const lease =
        pool && key
          ? await pool.lease(key, options.leaseTimeoutMs)
          : await backend.lease(key, options.leaseTimeoutMs, use === "checks" || use === "shared-checks");
      return lease.ok ? ok(sourceOnDemand(lease.value)) : lease;
    };
    const first = await acquire();
    return first.ok ? ok(recoveringLease(first.value, acquire)) : first;
  }

  async function load(request: LoadRequest): Promise<Result<Episode, SandboxError>> {
    const input = LoadInputSchema.safeParse(request);
    if (!input.success) return err(invalid(formatZodIssues(input.error, { root: "request" })));
    const { source, className, initialState, tools: only, seed } = input.data;
    const sourceKey = hash("env", source);
    const toolsKey = `${sourceKey}\u0000${className}`;
    const known = knownTools.get(toolsKey);
    // Workers are reused only for the same source: different untrusted code never shares a realm.
    const lease = await durableLease(sourceKey, "shared");
    if (!lease.ok) return lease;
    const reply = parseReply(
      await lease.value.call(
        {
          op: "load",
          source,
          source_key: sourceKey,
          class_name: className,
          initial_state: initialState,
          ...(known ? { schemas: false } : {}),
          ...(seed === undefined ? {} : { seed }),
        },
        options.loadTimeoutMs,
      ),
      LoadReplySchema,
    );
    const all = reply.ok ? (reply.value.tools ?? known) : undefined;
    if (!reply.ok || !all) {
      await lease.value.release(true);
      if (!reply.ok)
        return err({
          code: reply.error.code,
          message: reply.error.message,
          retryable: reply.error.retryable,
        });
      return err({
        code: "SANDBOX_UNAVAILABLE",
        message: "the sandbox sent no tools for the loaded environment",
        retryable: false,
      });
    }
    const { hidden } = reply.value;
    // An instance that shadows a tool (a state key named like a method) got a partial list: only
    // a complete one stands for every instance of the source.
    if (reply.value.tools && hidden.length === 0) remember(toolsKey, reply.value.tools);
    const tools = all.filter(
      (t) => !hidden.includes(t.function.name) && (!only || only.includes(t.function.name)),
    );
    // Where sessions share workers (`envstudio serve`), their checks do too: many episodes of a
    // scenario submit at once, and one worker per check set takes their calls back to back.
    return ok(
      createEpisode(lease.value, tools, options, (r) =>
        runChecks(r, checkSharing ? "shared-checks" : "checks"),
      ),
    );
  }

  function remember(key: string, tools: Tool[]) {
    knownTools.delete(key);
    knownTools.set(key, tools);
    if (knownTools.size > KNOWN_TOOLS_ENTRIES) knownTools.delete(knownTools.keys().next().value as string);
  }

  async function analyze(request: {
    source: string;
    className: string;
  }): Promise<Result<Analysis, SandboxError>> {
    const input = AnalyzeInputSchema.safeParse(request);
    if (!input.success) return err(invalid("analyze needs { source: string, className: string }"));
    // Analysis parses with `ast` and never executes the source, so it may use any fresh worker.
    const lease = await durableLease(null);
    if (!lease.ok) return lease;
    const raw = await lease.value.call(
      { op: "analyze", source: input.data.source, class_name: input.data.className },
      options.queryTimeoutMs,
    );
    const reply = parseReply(raw, AnalyzeReplySchema);
    await lease.value.release(!reply.ok);
    if (!reply.ok)
      return err({ code: reply.error.code, message: reply.error.message, retryable: reply.error.retryable });
    const r = reply.value;
    return ok({
      syntaxErrors: r.syntax_errors.map((e) => ({
        message: e.message,
        line: e.line,
        column: e.column,
        endLine: e.end_line,
        endColumn: e.end_column,
      })),
      classFound: r.class_found,
      classes: r.classes,
      publicMethods: r.methods,
      forbiddenImports: r.forbidden_imports,
      hasAsync: r.has_async,
      tools: r.tools,
    });
  }

  async function extractTools(source: string, className: string): Promise<Result<Tool[], SandboxError>> {
    const analysis = await analyze({ source, className });
    if (!analysis.ok) return analysis;
    const [syntax] = analysis.value.syntaxErrors;
    if (syntax)
      return err({
        code: "USER_CODE_ERROR",
        message: `SyntaxError at line ${syntax.line}, column ${syntax.column}: ${syntax.message}`,
        retryable: false,
      });
    if (!analysis.value.classFound)
      return err({
        code: "USER_CODE_ERROR",
        message: `class '${className}' is not defined at the top level of the source`,
        retryable: false,
      });
    return ok(analysis.value.tools);
  }

  async function runChecks(
    request: RunChecksInput,
    use: "checks" | "shared-checks" = "checks",
  ): Promise<Result<CheckResult[], SandboxError>> {
    const input = RunChecksInputSchema.safeParse(request);
    if (!input.success) return err(invalid("runChecks needs { checks: string[], initialState, finalState }"));
    const { checks, initialState, finalState } = input.data;
    // Check code is untrusted too: a worker is reused only for the very same set of checks.
    const lease = await durableLease(hash("checks", ...checks), use);
    if (!lease.ok) return lease;
    const raw = await lease.value.call(
      { op: "run_checks", checks, initial_state: initialState, final_state: finalState },
      options.checkTimeoutMs,
    );
    const reply = parseReply(raw, ChecksReplySchema);
    // A validator over many scenarios reuses one worker far longer than an episode would: a
    // replacement boots in ~0.3 s, which recycling every 50 check runs made the bottleneck.
    await lease.value.release(
      !reply.ok && reply.error.code !== "OUTPUT_TOO_LARGE" && reply.error.code !== "USER_CODE_ERROR",
      options.maxEpisodesPerWorker / options.maxCheckRunsPerWorker,
    );
    if (!reply.ok)
      return err({ code: reply.error.code, message: reply.error.message, retryable: reply.error.retryable });
    return ok(reply.value.results);
  }

  async function runChecksBatch(
    request: RunChecksBatchInput,
  ): Promise<Result<CheckResult[][], SandboxError>> {
    const input = RunChecksBatchInputSchema.safeParse(request);
    if (!input.success)
      return err(
        invalid("runChecksBatch needs { checks: string[], cases: [{ initialState, finalState }, ...] }"),
      );
    const { checks, cases } = input.data;
    const out: CheckResult[][] = [];
    const caseWeight = options.maxEpisodesPerWorker / options.maxCheckRunsPerWorker;
    // One lease serves chunk after chunk (a lease costs a round trip through the Pyodide host's
    // main thread, 1-10 ms on a busy machine), up to the check runs a worker may serve.
    let held: { lease: Lease; cases: number } | null = null;
    const letGo = async (recycle: boolean) => {
      if (held) await held.lease.release(recycle, held.cases * caseWeight);
      held = null;
    };
    try {
      for (let start = 0; start < cases.length; start += CHECK_BATCH_CASES) {
        const chunk = cases.slice(start, start + CHECK_BATCH_CASES);
        if (held && held.cases + chunk.length > options.maxCheckRunsPerWorker) await letGo(false);
        if (!held) {
          const lease = await durableLease(hash("checks", ...checks), "checks");
          if (!lease.ok) return lease;
          held = { lease: lease.value, cases: 0 };
        }
        const raw = await held.lease.call(
          {
            op: "run_checks_batch",
            checks,
            cases: chunk.map((c) => ({ initial_state: c.initialState, final_state: c.finalState })),
          },
          // The deadline of one runChecks call: a batch of fast checks fits easily, and a batch
          // with a slow check is rerun case by case below, so each case gets its own deadline.
          options.checkTimeoutMs,
        );
        held.cases += chunk.length;
        const reply = parseReply(raw, ChecksBatchReplySchema);
        if (reply.ok && reply.value.results.length === chunk.length) {
          out.push(...reply.value.results);
          continue;
        }
        await letGo(
          !reply.ok && reply.error.code !== "OUTPUT_TOO_LARGE" && reply.error.code !== "USER_CODE_ERROR",
        );
        if (!reply.ok && reply.error.code === "SANDBOX_UNAVAILABLE")
          return err({
            code: reply.error.code,
            message: reply.error.message,
            retryable: reply.error.retryable,
          });
        for (const c of chunk) {
          const one = await runChecks({ checks, initialState: c.initialState, finalState: c.finalState });
          if (one.ok) out.push(one.value);
          else if (one.error.code === "SANDBOX_UNAVAILABLE" || one.error.code === "INVALID_REQUEST")
            return one;
          else out.push(checks.map(() => ({ error: `${one.error.code}: ${one.error.message}` })));
        }
      }
    } finally {
      await letGo(false);
    }
    return ok(out);
  }

  return {
    backend: backend.name,
    load,
    analyze,
    extractTools,
    runChecks: (request) => runChecks(request),
    runChecksBatch,
    stats: () => backend.stats(),
    close: () => backend.close(),
  };
}
