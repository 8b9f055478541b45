/**
 * A lease that outlives its worker. When the sandbox host or the episode's worker dies under a
 * call (SANDBOX_UNAVAILABLE: the host exited or stopped answering, the worker is gone), the
 * episode moves to a fresh lease: its load and every step so far are replayed there — a replay is
 * deterministic, and each replayed reply must equal the one the caller already saw — and then the
 * failed call is sent again. Only if that fails too, or the replay diverges, does the caller see
 * an error. Long batches then never lose an episode to the runtime (one host crash used to fail
 * every episode in flight).
 */
import { type Result, err } from "../core/result";
import type { CallError, HarnessRequest, Lease } from "./backend";
import type { SandboxError } from "./sandbox.schema";

const MAX_RECOVERIES = 2;
/** Replies kept for a replay; an episode past this is not recovered (its history would cost more
 * memory than it is worth). */
const MAX_HISTORY_BYTES = 16 * 1024 * 1024;

/** Calls whose effect lives in the environment and must be replayed; the others only read it. */
const REPLAYED_OPS = new Set(["load", "step"]);

type Done = { request: HarnessRequest; timeoutMs: number; reply: string };

const isRuntimeLoss = (result: Result<unknown, CallError>) =>
  !result.ok && result.error.code === "SANDBOX_UNAVAILABLE";

export function recoveringLease(first: Lease, acquire: () => Promise<Result<Lease, SandboxError>>): Lease {
  let current = first;
  let recoveries = 0;
  let historyBytes = 0;
  const done: Done[] = [];

  /** Moves the episode to a fresh lease; null when it is there and in the same state. */
  async function recover(): Promise<CallError | null> {
    await current.release(true);
    const fresh = await acquire();
    if (!fresh.ok) return fresh.error;
    current = fresh.value;
    for (const step of done) {
      const replayed = await current.call(step.request, step.timeoutMs);
      if (!replayed.ok) return replayed.error;
      if (JSON.stringify(replayed.value) !== step.reply)
        return {
          code: "SANDBOX_UNAVAILABLE",
          message: "the sandbox worker died and replaying the episode on a new one gave different results",
          retryable: false,
          terminated: true,
        };
    }
    return null;
  }

  return {
    async call(request, timeoutMs) {
      let result = await current.call(request, timeoutMs);
      while (isRuntimeLoss(result) && recoveries < MAX_RECOVERIES && historyBytes <= MAX_HISTORY_BYTES) {
        recoveries += 1;
        const failure = await recover();
        if (failure) return err({ ...failure, terminated: true });
        result = await current.call(request, timeoutMs);
      }
      if (result.ok && REPLAYED_OPS.has(request.op) && historyBytes <= MAX_HISTORY_BYTES) {
        const reply = JSON.stringify(result.value);
        historyBytes += reply.length;
        done.push({ request, timeoutMs, reply });
      }
      return result;
    },
    release: (recycle, weight) => current.release(recycle, weight),
  };
}
