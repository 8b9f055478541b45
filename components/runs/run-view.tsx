"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, useTransition } from "react";
import { cancelRunAction, rerunStepAction } from "@/app/runs/actions";
import type { ActionResult } from "@/lib/core/result";
import type { RunView as RunData } from "@/lib/pipeline/run-view.types";
import { Card, ErrorState } from "@/components/ui/states";
import { LlmAccountingCard, LlmProblemsCard } from "./llm-accounting";
import { StageProgress } from "./stage-progress";
import { RunHeader } from "./run-header";
import { FailuresCard, RunEnvironmentsCard, TopicsCard } from "./run-outcome-cards";
import { StepsTable } from "./steps-table";

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
      <RunHeader run={run} pending={pending} onCancel={() => act(() => cancelRunAction({ runId: run.id }))} />
      {query.error ? <ErrorState title="Live updates paused" message={query.error.message} /> : null}
      {actionError ? <ErrorState message={actionError} /> : null}
      {run.errorMessage ? <p className="text-sm text-slate-600">{run.errorMessage}</p> : null}
      <Card title="Progress">
        <StageProgress stages={data.stages} />
      </Card>
      <LlmAccountingCard llm={data.llm} />
      <FailuresCard runId={run.id} failures={data.failures} />
      <LlmProblemsCard runId={run.id} problems={data.llmProblems} />
      <RunEnvironmentsCard environments={data.environments} />
      <TopicsCard topics={data.topics} />
      <StepsTable
        runId={run.id}
        steps={data.steps}
        pending={pending}
        onRerun={(s) =>
          act(() =>
            rerunStepAction({ runId: run.id, subjectKey: s.subjectKey, stage: s.stage, fresh: false }),
          )
        }
      />
    </div>
  );
}
