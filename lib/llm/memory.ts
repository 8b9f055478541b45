/** In-memory cache and a recorder that only collects: for unit tests, benchmarks and the CLI dry runs. */
import { ok } from "../core/result";
import type { CacheHitRecord, CallOutcome, CallStart, LlmRecorder } from "./call-record";
import type { LlmCache } from "./client";

export function createMemoryCache(): LlmCache & { size(): number } {
  const map = new Map<string, unknown>();
  return {
    get: (k) => Promise.resolve(map.get(k)),
    put: (k, _m, r) => Promise.resolve(void map.set(k, r)),
    evict: (k) => Promise.resolve(void map.delete(k)),
    size: () => map.size,
  };
}

/** One entry per call, hit or paid, with the same fields the database recorder keeps. */
export type MemoryCall = CallStart & {
  id: string;
  cached: boolean;
  sentAttempts: number;
  status: "PENDING" | CallOutcome["status"];
  rejection: string | null;
  costUsd: number;
  outcome?: CallOutcome;
};

export function createMemoryRecorder(): LlmRecorder & { calls: MemoryCall[] } {
  const calls: MemoryCall[] = [];
  const byId = (id: string) => {
    const call = calls.find((c) => c.id === id);
    if (!call) throw new Error(`no call ${id}`);
    return call;
  };
  return {
    calls,
    begin: (start) => {
      const id = `call-${calls.length + 1}`;
      calls.push({
        ...start,
        id,
        cached: false,
        sentAttempts: 1,
        status: "PENDING",
        rejection: null,
        costUsd: 0,
      });
      return Promise.resolve(id);
    },
    retrying: (id, attempt) => Promise.resolve(void (byId(id).sentAttempts = attempt)),
    finish: (id, outcome) =>
      Promise.resolve(
        void Object.assign(byId(id), {
          status: outcome.status,
          rejection: outcome.rejection,
          costUsd: outcome.costUsd,
          outcome,
        }),
      ),
    hit: (h: CacheHitRecord) => {
      const estimate = { promptTokens: 0, completionTokens: 0 };
      calls.push({
        ...h,
        id: `call-${calls.length + 1}`,
        estimate,
        estimatedCostUsd: 0,
        unpriced: false,
        cached: true,
        sentAttempts: 0,
        status: h.rejection ? "REJECTED" : "ACCEPTED",
        costUsd: 0,
      });
      return Promise.resolve();
    },
    checkBudget: () => Promise.resolve(ok(undefined)),
  };
}
