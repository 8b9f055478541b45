"use client";
import { useQuery } from "@tanstack/react-query";
import type { QueueItem } from "@/lib/review/review.schema";
import { CodeDiff } from "@/components/code/code-editor";
import { CodeViewer } from "@/components/code/code-viewer";
import { ToolTable } from "@/components/environments/tool-table";
import { StatusBadge } from "@/components/ui/badge";
import { ErrorState } from "@/components/ui/states";
import { queries } from "@/components/data/queries";

/**
 * Next to the list: the selected item's proof, quality summary, description and tools, and its code
 * — the diff against the earlier version when there is one, else the code itself; for a repair
 * proposal, the proofs of the current and the proposed checks side by side.
 */
export function QueuePreview({ item }: { item: QueueItem }) {
  const query = useQuery(queries.reviewPreview(item));
  return (
    <aside
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-3 text-sm"
      data-testid="queue-preview"
      aria-label="Preview"
    >
      <p className="font-medium text-slate-800">{item.title}</p>
      {query.error ? <ErrorState title="Preview unavailable" message={query.error.message} /> : null}
      {query.data ? (
        <>
          {query.data.proof ? (
            <div data-testid="preview-proof">
              <p className="flex items-center gap-2">
                Proof: <StatusBadge status={query.data.proof.status} />
              </p>
              {query.data.proof.reasons.length ? (
                <ul className="mt-1 list-disc pl-5 text-xs text-amber-800">
                  {query.data.proof.reasons.map((r) => (
                    <li key={r}>{r}</li>
                  ))}
                </ul>
              ) : null}
            </div>
          ) : null}
          {query.data.comparison ? (
            <div className="grid grid-cols-2 gap-2" data-testid="preview-comparison">
              {(["before", "after"] as const).map((side) => {
                const proof = query.data.comparison?.[side];
                return (
                  <div
                    key={side}
                    className="rounded border border-slate-200 p-2"
                    data-testid={`proof-${side}`}
                  >
                    <p className="flex items-center gap-2 text-xs font-medium text-slate-600">
                      {query.data.comparison?.labels?.[side] ??
                        (side === "before" ? "Current checks" : "Proposed checks")}
                      {proof ? <StatusBadge status={proof.status} /> : "not proven"}
                    </p>
                    {proof?.reasons.length ? (
                      <ul className="mt-1 list-disc pl-4 text-xs text-amber-800">
                        {proof.reasons.map((r) => (
                          <li key={r}>{r}</li>
                        ))}
                      </ul>
                    ) : null}
                  </div>
                );
              })}
            </div>
          ) : null}
          {query.data.quality ? (
            <p data-testid="preview-quality" className="text-slate-700">
              Quality: {query.data.quality}
            </p>
          ) : null}
          {query.data.description ? (
            <div>
              <p className="mb-1 text-xs font-medium uppercase tracking-wide text-slate-500">
                {item.kind === "environment" ? "Description" : "Task"}
              </p>
              <p className="whitespace-pre-wrap text-slate-700" data-testid="preview-description">
                {query.data.description}
              </p>
            </div>
          ) : null}
          {item.kind === "environment" ? (
            <details open data-testid="preview-tools">
              <summary className="cursor-pointer text-xs font-medium uppercase tracking-wide text-slate-500">
                Tools ({query.data.tools.length})
              </summary>
              <div className="mt-1 max-h-64 overflow-auto">
                <ToolTable tools={query.data.tools} />
              </div>
            </details>
          ) : null}
          {query.data.diff ? (
            <div>
              <p className="mb-1 text-xs text-slate-500" data-testid="preview-diff-label">
                Code diff {query.data.diff.label}
              </p>
              <div className="overflow-hidden rounded border border-slate-700" data-testid="preview-diff">
                <CodeDiff
                  navigable
                  height="20rem"
                  original={query.data.diff.original}
                  modified={query.data.diff.modified}
                />
              </div>
            </div>
          ) : query.data.code ? (
            <div>
              <p className="mb-1 text-xs text-slate-500" data-testid="preview-code-label">
                {query.data.code.label}
              </p>
              <div data-testid="preview-code">
                <CodeViewer height="20rem" source={query.data.code.source} />
              </div>
            </div>
          ) : null}
        </>
      ) : query.isLoading ? (
        <p className="text-xs text-slate-400">Loading preview…</p>
      ) : null}
    </aside>
  );
}
