"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { cancelRunAction, rerunStepAction } from "@/app/runs/actions";
import type { ActionResult } from "@/lib/core/result";
import type { RunView as RunData } from "@/lib/pipeline/run-view.schema";
import { Card, ErrorState } from "@/components/ui/states";
import { queries } from "@/components/data/queries";
import { queryKeys } from "@/components/data/query-keys";
import { unwrapAction } from "@/components/data/unwrap-action";
import { LlmAccountingCard, LlmProblemsCard } from "./llm-accounting";
import { StageProgress } from "./stage-progress";
import { RunHeader } from "./run-header";
import { FailuresCard, RunEnvironmentsCard, TopicsCard } from "./run-outcome-cards";
import { StepsTable } from "./steps-table";

export function RunView({ initial }: { initial: RunData }) {
  const client = useQueryClient();
  // Poll while the run is live; a terminal run stops polling.
  const query = useQuery({
    ...queries.runDetail(initial.run.id),
    initialData: initial,
    refetchInterval: (q) => (q.state.data?.run.isTerminal ? false : 1000),
  });
  const data = query.data;
  // Cancel and re-run change the run's detail and its summary alike.
  const control = useMutation({
    mutationFn: (send: () => Promise<ActionResult<void>>) => unwrapAction(send()),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.run.all(initial.run.id) }),
  });
  const pending = control.isPending;
  const actionError = control.error?.message ?? null;
  const act = (send: () => Promise<ActionResult<void>>) => control.mutate(send);
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
      <RunEnvironmentsCard environments={data.environments} isTerminal={run.isTerminal} />
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
