"use client";
import { useQuery } from "@tanstack/react-query";
import { StatusBadge } from "@/components/ui/badge";
import { isTerminalRunStatus } from "@/lib/core/run";
import { queries } from "@/components/data/queries";

const KIND_LABEL: Record<string, string> = {
  SCEN_GENERATOR: "Scenario generation",
  PROOF: "Validator proof",
  ROLLOUT: "Rollouts",
  REPAIR: "Repair",
};

/** Polls a run every 2 s until it is terminal (TanStack Query refetchInterval). */
export function RunProgress({ runId }: { runId: string }) {
  const { data, error } = useQuery({
    ...queries.runSummary(runId),
    refetchInterval: (q) => (q.state.data && isTerminalRunStatus(q.state.data.status) ? false : 2000),
  });
  if (error)
    return (
      <p className="text-sm text-rose-700">
        Could not load run {runId}: {error.message}
      </p>
    );
  if (!data) return <p className="text-sm text-slate-500">Loading run…</p>;
  const stages = Object.entries(data.stages);
  return (
    <div
      className="rounded border border-slate-200 p-3 text-sm"
      data-testid="run-progress"
      data-status={data.status}
    >
      <div className="flex items-center gap-2">
        <span className="font-medium">{KIND_LABEL[data.kind] ?? data.kind}</span>
        <StatusBadge status={data.status} />
        <span className="text-xs text-slate-500">${data.costUsd.toFixed(4)}</span>
      </div>
      {stages.length ? (
        <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600">
          {stages.map(([stage, counts]) => (
            <li key={stage}>
              <code>{stage}</code>:{" "}
              {Object.entries(counts)
                .map(([s, n]) => `${n} ${s.toLowerCase()}`)
                .join(", ")}
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-1 text-xs text-slate-500">Waiting for a worker…</p>
      )}
      {data.errorMessage ? <p className="mt-1 text-xs text-rose-700">{data.errorMessage}</p> : null}
    </div>
  );
}
