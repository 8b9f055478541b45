import { type Result, err, ok } from "../core/result";
import type { SandboxOptions } from "./options";
import { parseReply } from "./replies";
import { invalidRequest, replyError } from "./runner-errors";
import type { RunnerLeases } from "./runner-leases";
import {
  type Analysis,
  AnalyzeInputSchema,
  AnalyzeReplySchema,
  type SandboxError,
  type Splice,
  type SpliceInput,
  SpliceInputSchema,
  SpliceReplySchema,
  type Tool,
} from "./sandbox.schema";

/** Parses the source with `ast` (never runs it): syntax errors, classes, methods, forbidden imports, tools. */
export async function analyzeWith(
  leases: RunnerLeases,
  options: SandboxOptions,
  request: { source: string; className: string },
): Promise<Result<Analysis, SandboxError>> {
  const input = AnalyzeInputSchema.safeParse(request);
  if (!input.success) return err(invalidRequest("analyze needs { source: string, className: string }"));
  // Analysis never executes the source, so it may use any fresh worker.
  const lease = await leases.durable(null);
  if (!lease.ok) return lease;
  const raw = await lease.value.call(
    { op: "analyze", source: input.data.source, class_name: input.data.className },
    options.queryTimeoutMs,
  );
  const reply = parseReply(raw, AnalyzeReplySchema);
  await lease.value.release(!reply.ok);
  if (!reply.ok) return err(replyError(reply.error));
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

/** Replaces whole definitions of a source with a patch's (python/splice.py: `ast` only, never run). */
export async function spliceWith(
  leases: RunnerLeases,
  options: SandboxOptions,
  request: SpliceInput,
): Promise<Result<Splice, SandboxError>> {
  const input = SpliceInputSchema.safeParse(request);
  if (!input.success) return err(invalidRequest("splice needs { source, patch, className, allowed }"));
  const lease = await leases.durable(null);
  if (!lease.ok) return lease;
  const { source, patch, className, allowed } = input.data;
  const raw = await lease.value.call(
    { op: "splice", source, patch, class_name: className, allowed },
    options.queryTimeoutMs,
  );
  const reply = parseReply(raw, SpliceReplySchema);
  await lease.value.release(!reply.ok);
  if (!reply.ok) return err(replyError(reply.error));
  const r = reply.value;
  if (r.source === null) return ok({ ok: false, refusal: r.refusal ?? "the patch was refused" });
  return ok({ ok: true, source: r.source, replaced: r.replaced });
}

/** The tools of `className`, or why the source has none to give (a syntax error, no such class). */
export function toolsOf(analysis: Analysis, className: string): Result<Tool[], SandboxError> {
  const [syntax] = analysis.syntaxErrors;
  if (syntax)
    return err({
      code: "USER_CODE_ERROR",
      message: `SyntaxError at line ${syntax.line}, column ${syntax.column}: ${syntax.message}`,
      retryable: false,
    });
  if (!analysis.classFound)
    return err({
      code: "USER_CODE_ERROR",
      message: `class '${className}' is not defined at the top level of the source`,
      retryable: false,
    });
  return ok(analysis.tools);
}
