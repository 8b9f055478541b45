"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { confirmJudgeVerdictsAction, reviewProbeAction } from "@/app/review/actions";
import { Badge } from "@/components/ui/badge";
import { JsonView, StateDiffView, type DiffLike } from "@/components/ui/json-view";
import { Button } from "@/components/ui/button";
import { ToggleButton } from "@/components/ui/toggle-button";
import { unwrapAction } from "@/components/data/unwrap-action";
import { usePageRefresh } from "@/components/data/use-page-refresh";

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

/** Which probes are shown: a check has ~30, and reviewers mostly need the doubtful ones. */
const FILTERS = {
  all: { label: "All", keep: () => true },
  doubtful: { label: "Warnings & fails", keep: (p: ProbeRow) => p.verdict !== "PASS" },
  unreviewed: { label: "Not reviewed", keep: (p: ProbeRow) => p.reviewerVerdict === null },
} as const;
type FilterName = keyof typeof FILTERS;

/**
 * Every probe call of a quality check; reviewers confirm the judge's verdict or override it, one
 * by one or — for the probes shown that nobody has judged yet — all at once.
 */
export function ProbeTable({ probes, canReview }: { probes: ProbeRow[]; canReview: boolean }) {
  const page = usePageRefresh();
  const [notice, setNotice] = useState<string | null>(null);
  const [filter, setFilter] = useState<FilterName>("all");
  const shown = probes.filter(FILTERS[filter].keep);
  const unreviewedShown = shown.filter((p) => p.reviewerVerdict === null);
  // The probes come from the server-rendered quality page: a verdict shows after a refresh.
  const verdict = useMutation({
    mutationFn: (input: { probeId: string; verdict: ProbeRow["verdict"] }) =>
      unwrapAction(reviewProbeAction(input)),
    onSettled: page.refresh,
  });
  const confirmAll = useMutation({
    mutationFn: (probeIds: string[]) => unwrapAction(confirmJudgeVerdictsAction({ probeIds })),
    onSuccess: ({ confirmed, alreadyReviewed }) =>
      setNotice(
        `Confirmed ${confirmed.length} verdict${confirmed.length === 1 ? "" : "s"}` +
          (alreadyReviewed.length
            ? `; ${alreadyReviewed.length} had meanwhile been judged by a reviewer and were left as they are.`
            : "."),
      ),
    onSettled: page.refresh,
  });
  const pending = verdict.isPending || confirmAll.isPending || page.isRefreshing;
  // The latest write's refusal: starting one clears the other's.
  const error = (verdict.error ?? confirmAll.error)?.message ?? null;
  const review = (probeId: string, v: ProbeRow["verdict"]) => {
    confirmAll.reset();
    setNotice(null);
    verdict.mutate({ probeId, verdict: v });
  };
  const confirmShown = () => {
    verdict.reset();
    confirmAll.mutate(unreviewedShown.map((p) => p.id));
  };
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <div
          role="group"
          aria-label="Show probes"
          className="flex overflow-hidden rounded border border-slate-300"
        >
          {(Object.keys(FILTERS) as FilterName[]).map((name) => (
            <ToggleButton
              key={name}
              shape="segment"
              selected={filter === name}
              aria-pressed={filter === name}
              onClick={() => setFilter(name)}
            >
              {FILTERS[name].label} ({probes.filter(FILTERS[name].keep).length})
            </ToggleButton>
          ))}
        </div>
        {canReview && unreviewedShown.length ? (
          <Button variant="secondary" size="xs" className="ml-auto" disabled={pending} onClick={confirmShown}>
            Confirm the judge on {unreviewedShown.length} unreviewed
          </Button>
        ) : null}
      </div>
      {error ? (
        <p role="alert" className="text-sm text-rose-700">
          {error}
        </p>
      ) : null}
      {notice ? (
        <p role="status" className="text-sm text-emerald-700">
          {notice}
        </p>
      ) : null}
      {shown.length === 0 ? <p className="text-sm text-slate-500">No probe matches this filter.</p> : null}
      {shown.map((p) => (
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
          <p className="mt-1 text-sm break-words text-slate-700">{p.rationale}</p>
          <div className="mt-2 grid gap-2 md:grid-cols-3">
            <div className="min-w-0">
              <p className="text-xs font-medium text-slate-500">Arguments</p>
              <JsonView value={p.arguments} maxHeight="8rem" />
            </div>
            <div className="min-w-0">
              <p className="text-xs font-medium text-slate-500">Observation</p>
              <JsonView value={p.observation} maxHeight="8rem" />
            </div>
            <div className="min-w-0">
              <p className="text-xs font-medium text-slate-500">State diff</p>
              <StateDiffView diff={p.stateDiff as DiffLike | null} />
            </div>
          </div>
        </article>
      ))}
    </div>
  );
}
