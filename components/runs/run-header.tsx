import type { RunView } from "@/lib/pipeline/run-view.schema";
import { isDemoModel } from "@/lib/llm/demo-model";
import { DemoModelBadge, StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";

/** Name, live status, spend against the cap, and the cancel button while the run is live. */
export function RunHeader({
  run,
  pending,
  onCancel,
}: {
  run: RunView["run"];
  pending: boolean;
  onCancel: () => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      <h1 className="text-2xl font-semibold tracking-tight">{run.name || "Run"}</h1>
      <span data-testid="run-status">
        <StatusBadge status={run.status} />
      </span>
      {run.models.some(isDemoModel) ? <DemoModelBadge /> : null}
      <span className="text-sm text-slate-500" data-testid="run-cost">
        ${run.costUsd.toFixed(4)}
        {run.maxCostUsd !== null ? ` of $${run.maxCostUsd.toFixed(2)}` : ""} ·{" "}
        {(run.promptTokens + run.completionTokens).toLocaleString()} tokens
      </span>
      {!run.isTerminal ? (
        <Button variant="danger-outline" size="sm" className="ml-auto" disabled={pending} onClick={onCancel}>
          Cancel run
        </Button>
      ) : null}
    </div>
  );
}
