"use client";
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { queries } from "@/components/data/queries";
import { Button } from "@/components/ui/button";
import { JsonView } from "@/components/ui/json-view";
import { ErrorState, Skeleton } from "@/components/ui/states";

/**
 * One row of a dataset version as its EnvScaler export writes it: the task, the initial state
 * (`init_config`), each check with its code, the gold path, and the whole record. Focus moves here
 * when it opens; Escape or Close hands it back to the row that opened it.
 */
export function VersionRowPanel({
  versionId,
  scenarioId,
  onClose,
}: {
  versionId: string;
  scenarioId: string;
  onClose: () => void;
}) {
  const detail = useQuery(queries.datasetVersionRow(versionId, scenarioId));
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [scenarioId]);
  const exported = detail.data?.exported;
  const checks = exported?.checklist_with_func ?? [];

  return (
    <aside
      id="version-row-panel"
      aria-labelledby="version-row-panel-title"
      data-testid="version-row-panel"
      className="w-full shrink-0 space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm lg:sticky lg:top-4 lg:max-h-[calc(100vh-2rem)] lg:w-[28rem] lg:overflow-y-auto"
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.stopPropagation();
          onClose();
        }
      }}
    >
      <div className="flex items-start justify-between gap-2">
        <h3
          id="version-row-panel-title"
          ref={heading}
          tabIndex={-1}
          className="font-mono text-sm font-semibold text-slate-800"
        >
          {detail.data ? `${detail.data.row.envId} / ${detail.data.row.taskId}` : "Row"}
        </h3>
        <Button variant="secondary" size="xs" onClick={onClose}>
          Close
        </Button>
      </div>
      {detail.isError ? (
        <ErrorState
          message={detail.error.message}
          action={
            <Button variant="outline" size="sm" onClick={() => void detail.refetch()}>
              Retry
            </Button>
          }
        />
      ) : !detail.data || !exported ? (
        <div className="space-y-2" aria-label="Loading the row">
          <Skeleton className="h-4 w-2/3" />
          <Skeleton className="h-24 w-full" />
          <Skeleton className="h-24 w-full" />
        </div>
      ) : (
        <>
          <p className="text-xs text-slate-500">
            As the EnvScaler export writes it ({detail.data.row.split.toLowerCase()} split).{" "}
            <Link href={`/scenarios/${encodeURIComponent(scenarioId)}`} className="text-indigo-700 underline">
              Open the scenario
            </Link>
          </p>
          <section>
            <h4 className="text-xs font-semibold text-slate-600">Task</h4>
            <p className="whitespace-pre-wrap text-sm text-slate-800" data-testid="row-task">
              {exported.task}
            </p>
          </section>
          <section>
            <h4 className="text-xs font-semibold text-slate-600">Initial state</h4>
            <JsonView value={exported.init_config} maxHeight="12rem" testId="row-initial-state" />
          </section>
          <section>
            <h4 className="text-xs font-semibold text-slate-600">Checks ({checks.length})</h4>
            <ol className="list-decimal space-y-2 pl-5 text-sm" data-testid="row-checks">
              {checks.map((c, i) => (
                <li key={i}>
                  <p className="text-slate-800">{c.check_item}</p>
                  <pre className="mt-1 overflow-auto rounded bg-slate-900 p-2 font-mono text-xs text-slate-100">
                    {c.check_func}
                  </pre>
                </li>
              ))}
            </ol>
          </section>
          <section>
            <h4 className="text-xs font-semibold text-slate-600">Gold path</h4>
            {exported.gold_calls !== null && exported.gold_calls !== undefined ? (
              <JsonView value={exported.gold_calls} maxHeight="12rem" testId="row-gold-path" />
            ) : (
              <p className="text-sm text-slate-500">No gold path stored.</p>
            )}
          </section>
          <details>
            <summary className="cursor-pointer text-xs font-semibold text-slate-600">
              The whole exported record
            </summary>
            <JsonView value={exported} maxHeight="20rem" testId="row-exported" />
          </details>
        </>
      )}
    </aside>
  );
}
