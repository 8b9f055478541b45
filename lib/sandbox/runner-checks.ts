/**
 * Check functions over state pairs, one call or a batch. Check code is untrusted too: a worker is
 * reused only for the very same set of checks.
 */
import { type Result, err, ok } from "../core/result";
import type { Lease } from "./backend";
import type { SandboxOptions } from "./options";
import { parseReply } from "./replies";
import { invalidRequest, replyError } from "./runner-errors";
import { type RunnerLeases, workerKey } from "./runner-leases";
import {
  type CheckResult,
  ChecksBatchReplySchema,
  ChecksReplySchema,
  type RunChecksBatchInput,
  RunChecksBatchInputSchema,
  type RunChecksInput,
  RunChecksInputSchema,
  type SandboxError,
} from "./sandbox.schema";

/** Cases per batch call: enough to amortize a call, small enough that a rerun case by case is cheap. */
const CHECK_BATCH_CASES = 64;

/** A worker that failed for a reason other than the checks' own output or code is replaced. */
const isWorkerFault = (reply: Result<unknown, SandboxError>) =>
  !reply.ok && reply.error.code !== "OUTPUT_TOO_LARGE" && reply.error.code !== "USER_CODE_ERROR";

export async function runChecksWith(
  leases: RunnerLeases,
  options: SandboxOptions,
  request: RunChecksInput,
  use: "checks" | "shared-checks" = "checks",
): Promise<Result<CheckResult[], SandboxError>> {
  const input = RunChecksInputSchema.safeParse(request);
  if (!input.success)
    return err(invalidRequest("runChecks needs { checks: string[], initialState, finalState }"));
  const { checks, initialState, finalState } = input.data;
  const lease = await leases.durable(workerKey("checks", ...checks), use);
  if (!lease.ok) return lease;
  const raw = await lease.value.call(
    { op: "run_checks", checks, initial_state: initialState, final_state: finalState },
    options.checkTimeoutMs,
  );
  const reply = parseReply(raw, ChecksReplySchema);
  // A validator over many scenarios reuses one worker far longer than an episode would: a
  // replacement boots in ~0.3 s, which recycling every 50 check runs made the bottleneck.
  await lease.value.release(
    isWorkerFault(reply),
    options.maxEpisodesPerWorker / options.maxCheckRunsPerWorker,
  );
  if (!reply.ok) return err(replyError(reply.error));
  return ok(reply.value.results);
}

export async function runChecksBatchWith(
  leases: RunnerLeases,
  options: SandboxOptions,
  request: RunChecksBatchInput,
): Promise<Result<CheckResult[][], SandboxError>> {
  const input = RunChecksBatchInputSchema.safeParse(request);
  if (!input.success)
    return err(
      invalidRequest("runChecksBatch needs { checks: string[], cases: [{ initialState, finalState }, ...] }"),
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
        const lease = await leases.durable(workerKey("checks", ...checks), "checks");
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
      await letGo(isWorkerFault(reply));
      if (!reply.ok && reply.error.code === "SANDBOX_UNAVAILABLE") return err(replyError(reply.error));
      for (const c of chunk) {
        const one = await runChecksWith(leases, options, {
          checks,
          initialState: c.initialState,
          finalState: c.finalState,
        });
        if (one.ok) out.push(one.value);
        else if (one.error.code === "SANDBOX_UNAVAILABLE" || one.error.code === "INVALID_REQUEST") return one;
        else out.push(checks.map(() => ({ error: `${one.error.code}: ${one.error.message}` })));
      }
    }
  } finally {
    await letGo(false);
  }
  return ok(out);
}
