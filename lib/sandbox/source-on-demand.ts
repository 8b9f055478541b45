/**
 * Loads that leave the environment's source out when the worker already holds it. Workers are
 * reused per source, so after a worker's first episode every `load` would resend the same text:
 * for a 150 KB class that is about half of a warm load in Pyodide (the string converted into wasm
 * and parsed as JSON there). A load goes out with `source_key` only; a worker without that source
 * answers `need_source` and the full request follows. The wrapper sits under the recovering lease,
 * which records and replays the full request, so a replay on a fresh worker works the same way.
 */
import type { Lease } from "./backend";
import { NeedSourceReplySchema } from "./sandbox.schema";

export function sourceOnDemand(lease: Lease): Lease {
  return {
    async call(request, timeoutMs) {
      if (request.op !== "load" || request.source === undefined || request.source_key === undefined)
        return lease.call(request, timeoutMs);
      const { source: _sent, ...named } = request;
      const first = await lease.call(named, timeoutMs);
      if (!first.ok || !NeedSourceReplySchema.safeParse(first.value).success) return first;
      return lease.call(request, timeoutMs);
    },
    release: (recycle, weight) => lease.release(recycle, weight),
  };
}
