import Link from "next/link";
import type { LlmAccountingView, LlmProblemView } from "@/lib/pipeline/run-view.schema";
import { unpricedWarning } from "@/lib/llm/pricing";
import { Card } from "@/components/ui/states";
import { AttemptList } from "./llm-attempts";

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

/** Requests sent and what became of them, cost including lost answers (warning when a model has no price), and endpoint quality. */
export function LlmAccountingCard({ llm }: { llm: LlmAccountingView }) {
  return (
    <Card title="LLM requests">
      <p className="text-sm" data-testid="llm-accounting">
        {llm.requestsSent} requests sent · {llm.answersUsed} answers used · {llm.answersRejected} rejected by
        the stage · {llm.errorResponses} error responses · {llm.answersLost} answers lost
        {llm.inFlight ? ` · ${llm.inFlight} in flight` : ""} · {llm.cacheHits} cache hits · $
        {llm.costUsd.toFixed(4)} spent
        {llm.lostCostUsd ? ` (incl. $${llm.lostCostUsd.toFixed(4)} estimated for lost answers)` : ""}
      </p>
      {llm.unpricedModels.length ? (
        <p className="mt-1 text-sm text-amber-800" role="alert" data-testid="unpriced-models">
          Cost understated: {unpricedWarning(llm.unpricedModels)}
        </p>
      ) : null}
      {llm.endpoints.length ? (
        <table className="mt-2 w-full text-left text-sm" data-testid="endpoint-quality">
          <thead>
            <tr className="text-slate-500">
              <th>Model</th>
              <th>Attempts</th>
              <th>Error rate</th>
              <th>p95 latency</th>
              <th>Causes</th>
            </tr>
          </thead>
          <tbody>
            {llm.endpoints.map((e) => (
              <tr key={e.model}>
                <td>{e.model}</td>
                <td className="tabular-nums">{e.attempts}</td>
                <td className="tabular-nums">{pct(e.errorRate)}</td>
                <td className="tabular-nums">{e.p95LatencyMs === null ? "—" : `${e.p95LatencyMs} ms`}</td>
                <td>{e.causes.map((c) => `${c.code} ×${c.count}`).join(", ") || "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </Card>
  );
}

/** Every rejected, failed, lost or retried call with its cause, its attempts and the raw reply. */
export function LlmProblemsCard({ runId, problems }: { runId: string; problems: LlmProblemView[] }) {
  if (problems.length === 0) return null;
  return (
    <Card title={`LLM calls that were rejected, failed, lost or retried (${problems.length})`}>
      <ul className="space-y-2 text-sm" data-testid="llm-problems">
        {problems.map((p) => (
          <li
            key={p.id}
            className="rounded border border-amber-100 bg-amber-50 p-2"
            data-testid="llm-problem"
          >
            {p.stepId ? (
              <Link
                className="font-medium text-amber-900 underline"
                href={`/runs/${runId}/steps/${p.stepId}`}
              >
                {p.purpose || "call"}
              </Link>
            ) : (
              <span className="font-medium">{p.purpose}</span>
            )}{" "}
            <span className="text-xs text-amber-800">
              {p.status.toLowerCase()}
              {p.cached ? " (cache hit)" : ""} · {p.model} · {p.attempts} request(s)
            </span>
            {p.rejection ? (
              <p className="mt-1 whitespace-pre-wrap text-amber-950">rejected: {p.rejection}</p>
            ) : null}
            {p.errorMessage ? (
              <p className="mt-1 whitespace-pre-wrap text-rose-900">{p.errorMessage}</p>
            ) : null}
            {p.status === "LOST" ? (
              <p className="mt-1 text-rose-900">
                paid, answer lost: the process sending it stopped before the answer was stored (tokens and
                cost estimated)
              </p>
            ) : null}
            <AttemptList attempts={p.attemptLog} />
            {p.rawReply ? (
              <details>
                <summary className="cursor-pointer text-xs text-slate-600">raw reply</summary>
                <pre className="max-h-64 overflow-auto whitespace-pre-wrap rounded bg-slate-900 p-2 text-xs text-slate-100">
                  {p.rawReply}
                </pre>
              </details>
            ) : null}
          </li>
        ))}
      </ul>
    </Card>
  );
}
