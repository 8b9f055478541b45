import type { AttemptEntry } from "@/lib/llm/call-record";

/** One line per HTTP attempt of a call: outcome, cause, Retry-After honoured, wait and latency. */
export function AttemptList({ attempts }: { attempts: AttemptEntry[] }) {
  if (attempts.length === 0) return null;
  return (
    <ol className="ml-4 list-decimal text-xs text-slate-700" data-testid="llm-attempts">
      {attempts.map((a) => (
        <li key={a.attempt}>
          {a.ok
            ? "answered"
            : `${a.code ?? "error"}${a.status ? ` (HTTP ${a.status})` : ""}: ${a.message ?? ""}`}
          {" · "}
          {a.latencyMs} ms
          {a.retryAfterMs !== undefined ? ` · Retry-After ${a.retryAfterMs} ms honoured` : ""}
          {a.waitMs !== undefined ? ` · waited ${a.waitMs} ms` : ""}
        </li>
      ))}
    </ol>
  );
}
