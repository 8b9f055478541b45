"use client";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { reviewProbeAction } from "@/app/review/actions";
import { Badge } from "@/components/ui/badge";
import { JsonView, StateDiffView, type DiffLike } from "@/components/ui/json-view";
import { Button } from "@/components/ui/button";

export type ProbeRow = {
  id: string;
  index: number;
  kind: string;
  toolName: string;
  arguments: unknown;
  observation: unknown;
  stateDiff: unknown;
  verdict: "PASS" | "WARNING" | "FAIL";
  rationale: string;
  reviewerVerdict: "PASS" | "WARNING" | "FAIL" | null;
};

const TONE = { PASS: "green", WARNING: "amber", FAIL: "red" } as const;
const VERDICTS = ["PASS", "WARNING", "FAIL"] as const;

/** Every probe call of a quality check; reviewers confirm the judge's verdict or override it. */
export function ProbeTable({ probes, canReview }: { probes: ProbeRow[]; canReview: boolean }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const review = (probeId: string, verdict: ProbeRow["verdict"]) =>
    startTransition(async () => {
      const result = await reviewProbeAction({ probeId, verdict });
      setError(result.ok ? null : result.error.message);
      router.refresh();
    });
  return (
    <div className="space-y-3">
      {error ? (
        <p role="alert" className="text-sm text-rose-700">
          {error}
        </p>
      ) : null}
      {probes.map((p) => (
        <article key={p.id} className="rounded border border-slate-200 p-3" data-testid="probe">
          <header className="flex flex-wrap items-center gap-2 text-sm">
            <span className="font-mono font-semibold">
              #{p.index + 1} {p.toolName}
            </span>
            <Badge tone={p.kind === "negative" ? "violet" : "blue"}>{p.kind}</Badge>
            <span className="text-slate-500">judge:</span>
            <Badge tone={TONE[p.verdict]}>{p.verdict}</Badge>
            {p.reviewerVerdict ? (
              <span data-testid="reviewer-verdict">
                reviewer: <Badge tone={TONE[p.reviewerVerdict]}>{p.reviewerVerdict}</Badge>
              </span>
            ) : (
              <span className="text-xs text-slate-400">not reviewed</span>
            )}
            {canReview ? (
              <span className="ml-auto flex gap-1">
                {/* Only what would change something: no "Confirm" once confirmed, no override already applied. */}
                {p.reviewerVerdict !== p.verdict ? (
                  <Button
                    disabled={pending}
                    onClick={() => review(p.id, p.verdict)}
                    variant="secondary"
                    size="xs"
                  >
                    Confirm
                  </Button>
                ) : null}
                {VERDICTS.filter((v) => v !== p.verdict && v !== p.reviewerVerdict).map((v) => (
                  <Button
                    key={v}
                    disabled={pending}
                    onClick={() => review(p.id, v)}
                    variant="secondary"
                    size="xs"
                  >
                    Override → {v}
                  </Button>
                ))}
              </span>
            ) : null}
          </header>
          <p className="mt-1 text-sm text-slate-700">{p.rationale}</p>
          <div className="mt-2 grid gap-2 md:grid-cols-3">
            <div>
              <p className="text-xs font-medium text-slate-500">Arguments</p>
              <JsonView value={p.arguments} maxHeight="8rem" />
            </div>
            <div>
              <p className="text-xs font-medium text-slate-500">Observation</p>
              <JsonView value={p.observation} maxHeight="8rem" />
            </div>
            <div>
              <p className="text-xs font-medium text-slate-500">State diff</p>
              <StateDiffView diff={p.stateDiff as DiffLike | null} />
            </div>
          </div>
        </article>
      ))}
    </div>
  );
}
