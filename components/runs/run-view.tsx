"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState, useTransition } from "react";
import { cancelRunAction, rerunStepAction } from "@/app/runs/actions";
import type { ActionResult } from "@/lib/core/result";
import type { RunView as RunData } from "@/lib/pipeline/run-view.types";
import { StatusBadge } from "@/components/ui/badge";
import { Card, EmptyState, ErrorState } from "@/components/ui/states";
import { LlmAccountingCard, LlmProblemsCard } from "./llm-accounting";
import { StageProgress } from "./stage-progress";
import { Button } from "@/components/ui/button";

async function fetchRun(id: string): Promise<RunData> {
  const res = await fetch(`/api/runs/${id}`, { cache: "no-store" });
  if (!res.ok) throw new Error(`could not load the run (HTTP ${res.status})`);
  return (await res.json()) as RunData;
}

export function RunView({ initial }: { initial: RunData }) {
  const client = useQueryClient();
  const [actionError, setActionError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  // Poll while the run is live; a terminal run stops polling.
  const query = useQuery({
    queryKey: ["run", initial.run.id],
    queryFn: () => fetchRun(initial.run.id),
    initialData: initial,
    refetchInterval: (q) => (q.state.data?.run.isTerminal ? false : 1000),
  });
  const data = query.data;
  const act = (fn: () => Promise<ActionResult<void>>) =>
    startTransition(async () => {
      const r = await fn();
      setActionError(r.ok ? null : r.error.message);
      await client.invalidateQueries({ queryKey: ["run", initial.run.id] });
    });
  const { run } = data;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">{run.name || "Run"}</h1>
        <span data-testid="run-status">
          <StatusBadge status={run.status} />
        </span>
        <span className="text-sm text-slate-500" data-testid="run-cost">
          ${run.costUsd.toFixed(4)}
          {run.maxCostUsd !== null ? ` of $${run.maxCostUsd.toFixed(2)}` : ""} ·{" "}
          {(run.promptTokens + run.completionTokens).toLocaleString()} tokens
        </span>
        {!run.isTerminal ? (
          <Button
            disabled={pending}
            onClick={() => act(() => cancelRunAction({ runId: run.id }))}
            variant="danger-outline"
            size="sm"
            className="ml-auto"
          >
            Cancel run
          </Button>
        ) : null}
      </div>
      {query.error ? <ErrorState title="Live updates paused" message={query.error.message} /> : null}
      {actionError ? <ErrorState message={actionError} /> : null}
      {run.errorMessage ? <p className="text-sm text-slate-600">{run.errorMessage}</p> : null}
      <Card title="Progress">
        <StageProgress stages={data.stages} />
      </Card>
      <LlmAccountingCard llm={data.llm} />
      <Card title={`Failures (${data.failures.length})`}>
        {data.failures.length === 0 ? (
          <p className="text-sm text-slate-500">None.</p>
        ) : (
          <ul className="space-y-2 text-sm" data-testid="failures">
            {data.failures.map((f) => (
              <li key={f.id} className="rounded border border-rose-100 bg-rose-50 p-2">
                <Link href={`/runs/${run.id}/steps/${f.id}`} className="font-medium text-rose-800 underline">
                  {f.stage} · {f.subjectKey}
                </Link>{" "}
                <span className="text-xs text-rose-700">
                  {f.status.toLowerCase()} · {f.errorCode} · {f.retryable ? "retryable" : "not retryable"} ·
                  attempt {f.attempt}
                </span>
                <p className="mt-1 whitespace-pre-wrap text-rose-900">{f.errorMessage}</p>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <LlmProblemsCard runId={run.id} problems={data.llmProblems} />
      <Card title="Environments">
        {data.environments.length === 0 ? (
          <EmptyState title="No environments yet" />
        ) : (
          <ul className="space-y-1 text-sm" data-testid="run-environments">
            {data.environments.map((e) => (
              <li key={e.id} className="flex items-center gap-2">
                <Link className="text-indigo-700 underline" href={`/environments/${e.id}`}>
                  {e.name}
                </Link>
                <StatusBadge status={e.status} />
                <span className="text-slate-500">{e.toolCount} tools</span>
              </li>
            ))}
          </ul>
        )}
      </Card>
      {data.topics.length ? (
        <Card title="Topics and clusters">
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="text-slate-500">
                <th>Topic</th>
                <th>Useful</th>
                <th>Model</th>
                <th>Cluster</th>
                <th>Kept</th>
              </tr>
            </thead>
            <tbody>
              {data.topics.map((t) => (
                <tr key={t.id} title={t.sourceTask}>
                  <td>{t.summary}</td>
                  <td>{t.usefulness}</td>
                  <td>{t.modelability}</td>
                  <td>{t.clusterKey ?? "—"}</td>
                  <td>{t.kept ? "yes" : "no"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      ) : null}
      <Card title="Steps">
        <table className="w-full text-left text-sm" data-testid="steps-table">
          <thead>
            <tr className="text-slate-500">
              <th>Subject</th>
              <th>Stage</th>
              <th>Status</th>
              <th>Tokens</th>
              <th>Cost</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {data.steps.map((s) => (
              <tr key={s.id} data-testid="step-row">
                <td>{s.subjectKey}</td>
                <td>
                  <Link className="text-indigo-700 underline" href={`/runs/${run.id}/steps/${s.id}`}>
                    {s.stage}
                  </Link>
                </td>
                <td>
                  <StatusBadge status={s.status} />
                </td>
                <td className="tabular-nums">{s.promptTokens + s.completionTokens}</td>
                <td className="tabular-nums">${s.costUsd.toFixed(4)}</td>
                <td>
                  {["SUCCEEDED", "FAILED", "CANCELLED"].includes(s.status) ? (
                    <Button
                      disabled={pending}
                      variant="ghost"
                      size="xs"
                      onClick={() =>
                        act(() =>
                          rerunStepAction({
                            runId: run.id,
                            subjectKey: s.subjectKey,
                            stage: s.stage,
                            fresh: false,
                          }),
                        )
                      }
                    >
                      Re-run
                    </Button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
    </div>
  );
}
