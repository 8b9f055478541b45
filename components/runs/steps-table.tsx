import Link from "next/link";
import type { RunView } from "@/lib/pipeline/run-view.schema";
import { StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/states";

type Step = RunView["steps"][number];

/** Only a step that has stopped can be re-run; a queued or running one is still in flight. */
const RERUNNABLE = ["SUCCEEDED", "FAILED", "CANCELLED"];

/** Every step of the run with its tokens and cost; a finished step can be re-run. */
export function StepsTable({
  runId,
  steps,
  pending,
  onRerun,
}: {
  runId: string;
  steps: Step[];
  pending: boolean;
  onRerun: (step: Step) => void;
}) {
  return (
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
          {steps.map((s) => (
            <tr key={s.id} data-testid="step-row">
              <td>{s.subjectKey}</td>
              <td>
                <Link className="text-indigo-700 underline" href={`/runs/${runId}/steps/${s.id}`}>
                  {s.stage}
                </Link>
              </td>
              <td>
                <StatusBadge status={s.status} />
              </td>
              <td className="tabular-nums">{s.promptTokens + s.completionTokens}</td>
              <td className="tabular-nums">${s.costUsd.toFixed(4)}</td>
              <td>
                {RERUNNABLE.includes(s.status) ? (
                  <Button variant="ghost" size="xs" disabled={pending} onClick={() => onRerun(s)}>
                    Re-run
                  </Button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}
