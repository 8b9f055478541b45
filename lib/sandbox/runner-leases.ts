import { createHash } from "node:crypto";
import { type Result, ok } from "../core/result";
import type { Backend, Lease } from "./backend";
import type { SandboxOptions } from "./options";
import { recoveringLease } from "./recovering-lease";
import type { SandboxError } from "./sandbox.schema";
import { createWorkerSharing } from "./shared-workers";
import { sourceOnDemand } from "./source-on-demand";

/**
 * Which workers a lease may come from: a fresh one per episode or per check set, or (with
 * `workersPerSource`, as `envstudio serve` sets it) a few workers shared by the episodes of one
 * source and one worker shared by the checks of one check set.
 */
export type LeaseUse = "episode" | "checks" | "shared" | "shared-checks";

/** The key a worker is reused under: the same source, or the same set of checks, never anything else. */
export const workerKey = (...parts: string[]) =>
  createHash("sha256").update(parts.join("\u0000")).digest("hex");

export type RunnerLeases = ReturnType<typeof createRunnerLeases>;

/** How long a shared worker whose episodes all closed stays held for the next one (shared-workers.ts):
 * long enough to span the gap between two sessions' resets or submits under load, short enough
 * that an idle source gives its workers back almost at once. */
const SHARED_IDLE_HOLD_MS = 250;

export function createRunnerLeases(backend: Backend, options: SandboxOptions) {
  // Episodes of one source side by side in a few workers (`envstudio serve`; shared-workers.ts).
  const sharing =
    options.workersPerSource > 0
      ? createWorkerSharing((key, waitMs) => backend.lease(key, waitMs), {
          workersPerSource: options.workersPerSource,
          maxWorkers: options.poolSize,
          maxEpisodesPerWorker: options.maxEpisodesPerWorker,
          unloadTimeoutMs: options.queryTimeoutMs,
          statefulEpisodes: true,
          idleHoldMs: SHARED_IDLE_HOLD_MS,
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
          statefulEpisodes: false,
          idleHoldMs: SHARED_IDLE_HOLD_MS,
        })
      : null;

  return {
    /** Whether the checks of episodes share workers (they do where the episodes do). */
    areChecksShared: checkSharing !== null,
    /** A lease whose episode moves to a fresh worker if its worker or host dies (recovering-lease.ts). */
    async durable(key: string | null, use: LeaseUse = "episode"): Promise<Result<Lease, SandboxError>> {
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
    },
  };
}
