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
import { parseReply } from "./replies";
import {
  type Analysis,
  AnalyzeInputSchema,
  AnalyzeReplySchema,
  type CheckResult,
  ChecksReplySchema,
  LoadInputSchema,
  LoadReplySchema,
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
  stats(): Promise<BackendStats>;
  close(): Promise<void>;
}

const invalid = (message: string): SandboxError => ({ code: "INVALID_REQUEST", message, retryable: false });
const hash = (...parts: string[]) => createHash("sha256").update(parts.join("\u0000")).digest("hex");

export function createRunnerWithBackend(backend: Backend, options: SandboxOptions): SandboxRunner {
  /** A lease whose episode moves to a fresh worker if its worker or host dies (recovering-lease.ts). */
  async function durableLease(key: string | null): Promise<Result<Lease, SandboxError>> {
    const acquire = () => backend.lease(key, options.leaseTimeoutMs);
    const first = await acquire();
    return first.ok ? ok(recoveringLease(first.value, acquire)) : first;
  }

  async function load(request: LoadRequest): Promise<Result<Episode, SandboxError>> {
    const input = LoadInputSchema.safeParse(request);
    if (!input.success) return err(invalid(formatZodIssues(input.error, { root: "request" })));
    const { source, className, initialState, tools: only } = input.data;
    // Workers are reused only for the same source: different untrusted code never shares a realm.
    const lease = await durableLease(hash("env", source));
    if (!lease.ok) return lease;
    const reply = parseReply(
      await lease.value.call(
        { op: "load", source, class_name: className, initial_state: initialState },
        options.loadTimeoutMs,
      ),
      LoadReplySchema,
    );
    if (!reply.ok) {
      await lease.value.release(true);
      return err({ code: reply.error.code, message: reply.error.message, retryable: reply.error.retryable });
    }
    const tools = only ? reply.value.tools.filter((t) => only.includes(t.function.name)) : reply.value.tools;
    return ok(createEpisode(lease.value, tools, options));
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

  async function runChecks(request: RunChecksInput): Promise<Result<CheckResult[], SandboxError>> {
    const input = RunChecksInputSchema.safeParse(request);
    if (!input.success) return err(invalid("runChecks needs { checks: string[], initialState, finalState }"));
    const { checks, initialState, finalState } = input.data;
    // Check code is untrusted too: a worker is reused only for the very same set of checks.
    const lease = await durableLease(hash("checks", ...checks));
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

  return {
    backend: backend.name,
    load,
    analyze,
    extractTools,
    runChecks,
    stats: () => backend.stats(),
    close: () => backend.close(),
  };
}
