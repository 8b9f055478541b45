import type { PlaygroundStep } from "@/lib/playground/playground.schema";
import { Button } from "@/components/ui/button";
import { JsonView, StateDiffView } from "@/components/ui/json-view";

/** The calls made so far in this episode, each with its observation and the state change it caused. */
export function StepHistory({ history, onReset }: { history: PlaygroundStep[]; onReset: () => void }) {
  return (
    <>
      <div className="flex items-center justify-between">
        <h3 className="text-sm font-semibold text-slate-700">Steps ({history.length})</h3>
        <Button variant="ghost" size="sm" onClick={onReset} disabled={!history.length}>
          Reset
        </Button>
      </div>
      <ol className="space-y-3" data-testid="step-history">
        {history.map((h, i) => (
          <li key={i} className="rounded border border-slate-200 p-2" data-testid="playground-step">
            <p className="font-mono text-xs">
              <b>
                {i + 1}. {h.call.name}
              </b>
              ({JSON.stringify(h.call.args)})
              {h.isError ? <span className="ml-2 text-rose-700">error</span> : null}
            </p>
            {h.divergedAt !== null ? (
              <p className="text-xs text-amber-700">
                Replay differed at step {h.divergedAt + 1}: a tool is not deterministic.
              </p>
            ) : null}
            <JsonView value={h.observation} maxHeight="10rem" testId="step-observation" />
            <StateDiffView diff={h.diff} testId="step-diff" />
          </li>
        ))}
      </ol>
    </>
  );
}
