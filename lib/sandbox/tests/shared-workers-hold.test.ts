// Worker sharing's bookkeeping against a recording backend: which calls reach the physical
// worker, when it goes back, and that holding it idle never lets an episode see another's state
// (the unload still precedes every later call) or keeps a dead or spent worker.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ok } from "../../core/result";
import type { HarnessRequest, Lease } from "../backend";
import { type WorkerSharingOptions, createWorkerSharing } from "../shared-workers";

type Physical = { id: number; calls: HarnessRequest[]; releases: { recycle: boolean }[] };

function recordingBackend() {
  const workers: Physical[] = [];
  const acquire = () => {
    const worker: Physical = { id: workers.length, calls: [], releases: [] };
    workers.push(worker);
    const lease: Lease = {
      call: (request) => {
        worker.calls.push(request);
        return Promise.resolve(ok({}));
      },
      release: (recycle) => {
        worker.releases.push({ recycle });
        return Promise.resolve();
      },
    };
    return Promise.resolve(ok(lease));
  };
  return { workers, acquire };
}

const base: WorkerSharingOptions = {
  workersPerSource: 1,
  maxWorkers: 4,
  maxEpisodesPerWorker: 100,
  unloadTimeoutMs: 1_000,
  statefulEpisodes: true,
  idleHoldMs: 250,
};

async function leaseOf(sharing: ReturnType<typeof createWorkerSharing>, key = "source") {
  const lease = await sharing.lease(key, 1_000);
  if (!lease.ok) throw new Error(lease.error.message);
  return lease.value;
}

describe("shared workers: idle hold and unloads", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("keeps an emptied worker for the next episode of its source, then gives it back once", async () => {
    const backend = recordingBackend();
    const sharing = createWorkerSharing(backend.acquire, base);
    const first = await leaseOf(sharing);
    await first.call({ op: "step", name: "a", arguments: {} }, 1_000);
    await first.release(false);
    expect(backend.workers[0]!.releases).toEqual([]);
    expect(sharing.workers("source")).toBe(1);

    // Within the hold: the same physical worker, no second lease, no release in between.
    await vi.advanceTimersByTimeAsync(200);
    const second = await leaseOf(sharing);
    await second.call({ op: "step", name: "b", arguments: {} }, 1_000);
    expect(backend.workers).toHaveLength(1);
    // The first episode's unload reached the worker before the second episode's first call.
    const ops = backend.workers[0]!.calls.map((c) => c.op);
    expect(ops).toEqual(["step", "unload", "step"]);
    const [firstStep, unload, secondStep] = backend.workers[0]!.calls;
    expect(unload!.episode).toBe(firstStep!.episode);
    expect(secondStep!.episode).not.toBe(firstStep!.episode);

    // The second episode's close restarts the hold; past it the worker goes back, parked (not recycled).
    await second.release(false);
    await vi.advanceTimersByTimeAsync(249);
    expect(backend.workers[0]!.releases).toEqual([]);
    await vi.advanceTimersByTimeAsync(2);
    expect(backend.workers[0]!.releases).toEqual([{ recycle: false }]);
    expect(sharing.workers("source")).toBe(0);

    // The next episode leases anew.
    await leaseOf(sharing);
    expect(backend.workers).toHaveLength(2);
  });

  it("sends no unload for stateless leases (check runs keep nothing between calls)", async () => {
    const backend = recordingBackend();
    const sharing = createWorkerSharing(backend.acquire, { ...base, statefulEpisodes: false });
    const lease = await leaseOf(sharing, "checks");
    await lease.call({ op: "run_checks", checks: [], initial_state: {}, final_state: {} }, 1_000);
    await lease.release(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(backend.workers[0]!.calls.map((c) => c.op)).toEqual(["run_checks"]);
    expect(backend.workers[0]!.releases).toEqual([{ recycle: false }]);
  });

  it("gives a spent worker back at once, whatever the hold", async () => {
    const backend = recordingBackend();
    const sharing = createWorkerSharing(backend.acquire, { ...base, maxEpisodesPerWorker: 1 });
    const lease = await leaseOf(sharing);
    await lease.release(false);
    expect(backend.workers[0]!.releases).toEqual([{ recycle: true }]);
    // The unload went out before the worker went back.
    expect(backend.workers[0]!.calls.map((c) => c.op)).toEqual(["unload"]);
    await leaseOf(sharing);
    expect(backend.workers).toHaveLength(2);
  });

  it("recycles a worker an episode leaves in an unknown state at once, and never holds it", async () => {
    const backend = recordingBackend();
    const sharing = createWorkerSharing(backend.acquire, base);
    const lease = await leaseOf(sharing);
    await lease.release(true);
    expect(backend.workers[0]!.releases).toEqual([{ recycle: true }]);
    expect(backend.workers[0]!.calls).toEqual([]);
    await leaseOf(sharing);
    expect(backend.workers).toHaveLength(2);
  });

  it("with no hold, an emptied worker goes back at once after its unload", async () => {
    const backend = recordingBackend();
    const sharing = createWorkerSharing(backend.acquire, { ...base, idleHoldMs: 0 });
    const lease = await leaseOf(sharing);
    await lease.release(false);
    expect(backend.workers[0]!.calls.map((c) => c.op)).toEqual(["unload"]);
    expect(backend.workers[0]!.releases).toEqual([{ recycle: false }]);
  });
});
