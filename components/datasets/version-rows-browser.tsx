"use client";
import Link from "next/link";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { VersionRow, VersionRowsPage, VersionRowsQuery } from "@/lib/datasets/version-rows.schema";
import { queries } from "@/components/data/queries";
import { Pagination } from "@/components/ui/pagination";
import { Button } from "@/components/ui/button";
import { FilterSelect, SearchInput } from "@/components/ui/inputs";
import { EmptyState, ErrorState, Skeleton } from "@/components/ui/states";
import { VersionRowPanel } from "./version-row-panel";

const percent = (x: number | null) => (x === null ? "—" : `${Math.round(x * 100)}%`);

const SPLITS = [
  { value: "TRAIN", label: "Train" },
  { value: "TEST", label: "Test" },
];

const PROOF_TONE: Record<VersionRow["proofStatus"], string> = {
  VERIFIED: "text-emerald-700",
  FAILED: "text-rose-700",
  STALE: "text-amber-800",
  PENDING: "text-slate-500",
};

/**
 * A dataset version's rows, one page at a time from the server: environment and env_id, task
 * excerpt, split, pins, difficulty and near-miss strength where the version froze them, proof
 * status. Search runs in Postgres; a row opens its exported record in a side panel.
 */
export function VersionRowsBrowser({
  datasetId,
  versionId,
  versions,
  shown,
  initialData,
}: {
  datasetId: string;
  versionId: string;
  versions: number[];
  shown: number;
  initialData: VersionRowsPage;
}) {
  const initialQuery: VersionRowsQuery = { q: undefined, page: 1, pageSize: initialData.pageSize };
  const [search, setSearch] = useState("");
  const [query, setQuery] = useState<VersionRowsQuery>(initialQuery);
  const [open, setOpen] = useState<string | null>(null);
  const openers = useRef(new Map<string, HTMLButtonElement>());
  // Debounced: one request per pause in typing, not per key.
  useEffect(() => {
    const q = search.trim() || undefined;
    if (q === query.q) return;
    const timer = setTimeout(() => setQuery((f) => ({ ...f, q, page: 1 })), 250);
    return () => clearTimeout(timer);
  }, [search, query.q]);
  const isInitial = !query.q && !query.split && query.page === 1;
  const rows = useQuery({
    ...queries.datasetVersionRows(versionId, query),
    initialData: isInitial ? initialData : undefined,
    placeholderData: keepPreviousData,
  });
  const close = () => {
    const opener = open ? openers.current.get(open) : undefined;
    setOpen(null);
    opener?.focus();
  };

  return (
    <div className="space-y-3">
      <nav className="flex flex-wrap gap-2 text-sm" aria-label="Show version">
        {versions.map((v) => (
          <Link
            key={v}
            href={`/datasets/${datasetId}?v=${v}`}
            aria-current={v === shown ? "page" : undefined}
            className={v === shown ? "font-semibold" : "text-indigo-700 underline"}
          >
            v{v}
          </Link>
        ))}
      </nav>
      <div className="flex flex-wrap items-center gap-3">
        <SearchInput
          label={`Search the rows of v${shown}`}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder="Search tasks, task ids, environments…"
          className="w-80"
        />
        <FilterSelect
          aria-label="Filter by split"
          value={query.split ?? ""}
          onChange={(e) =>
            setQuery((f) => ({
              ...f,
              page: 1,
              split: (e.target.value || undefined) as VersionRowsQuery["split"],
            }))
          }
          allLabel="Both splits"
          options={SPLITS}
        />
        <span className="text-sm text-slate-500" aria-live="polite" data-testid="row-count">
          {rows.isFetching
            ? "Loading…"
            : rows.data
              ? `${rows.data.total.toLocaleString("en-US")} ${rows.data.total === 1 ? "row" : "rows"}`
              : ""}
        </span>
      </div>
      <div className="flex flex-col gap-4 lg:flex-row lg:items-start">
        <div className="min-w-0 flex-1 space-y-3">
          {rows.isError ? (
            <ErrorState
              message={rows.error.message}
              action={
                <Button variant="outline" size="sm" onClick={() => void rows.refetch()}>
                  Retry
                </Button>
              }
            />
          ) : !rows.data ? (
            <div className="space-y-2" data-testid="rows-loading" aria-label="Loading rows">
              <Skeleton className="h-6 w-full" />
              <Skeleton className="h-6 w-full" />
              <Skeleton className="h-6 w-full" />
            </div>
          ) : rows.data.items.length === 0 ? (
            <EmptyState title={query.q || query.split ? "No rows match" : "This version has no rows"}>
              {query.q || query.split ? "Clear the search or the split filter to see every row." : null}
            </EmptyState>
          ) : (
            <>
              <div className="relative overflow-x-auto">
                <table
                  className={`w-full text-left text-xs ${rows.isPlaceholderData ? "opacity-60" : ""}`}
                  data-testid="version-items"
                >
                  <thead>
                    <tr className="border-b border-slate-200 text-slate-500">
                      <th className="py-1 pr-3 font-medium">Task</th>
                      <th className="py-1 pr-3 font-medium">Environment</th>
                      <th className="py-1 pr-3 font-medium">Split</th>
                      <th className="py-1 pr-3 font-medium">Environment version</th>
                      <th className="py-1 pr-3 font-medium">Check versions</th>
                      <th className="py-1 pr-3 font-medium">Difficulty</th>
                      <th className="py-1 pr-3 font-medium">Near-miss</th>
                      <th className="py-1 pr-3 font-medium">Proof</th>
                      <th className="py-1 font-medium">
                        <span className="sr-only">Override</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.data.items.map((r) => (
                      <tr
                        key={r.scenarioId}
                        data-testid="version-item"
                        aria-selected={open === r.scenarioId}
                        className={`border-b border-slate-100 align-top ${open === r.scenarioId ? "bg-indigo-50" : ""}`}
                      >
                        <td className="max-w-md py-1.5 pr-3">
                          <Button
                            variant="ghost"
                            size="xs"
                            className="text-left font-mono"
                            aria-expanded={open === r.scenarioId}
                            aria-controls="version-row-panel"
                            ref={(el) => {
                              if (el) openers.current.set(r.scenarioId, el);
                              else openers.current.delete(r.scenarioId);
                            }}
                            onClick={() => setOpen(open === r.scenarioId ? null : r.scenarioId)}
                          >
                            {r.taskId}
                          </Button>
                          <p className="mt-0.5 text-slate-600" data-testid="task-excerpt">
                            {r.taskExcerpt}
                          </p>
                        </td>
                        <td className="py-1.5 pr-3">
                          <div>{r.environmentName}</div>
                          <div className="font-mono text-slate-500" data-testid="env-id">
                            {r.envId}
                          </div>
                        </td>
                        <td className="py-1.5 pr-3">{r.split.toLowerCase()}</td>
                        <td className="py-1.5 pr-3" data-testid="pinned-environment">
                          v{r.environmentVersion}
                        </td>
                        <td className="py-1.5 pr-3" data-testid="pinned-checks">
                          {r.validatorVersions.map((v) => `v${v}`).join(" · ") || "—"}
                        </td>
                        <td className="py-1.5 pr-3" title="Success rate and P(signal) the version froze">
                          {r.difficulty
                            ? `${percent(r.difficulty.successRate)} · P(signal) ${percent(r.difficulty.pSignal)} · n=${r.difficulty.n}`
                            : "—"}
                        </td>
                        <td className="py-1.5 pr-3" title="Near-misses of the gold path the checks rejected">
                          {r.nearMiss ? `${r.nearMiss.rejected}/${r.nearMiss.total} rejected` : "—"}
                        </td>
                        <td className={`py-1.5 pr-3 ${PROOF_TONE[r.proofStatus]}`}>
                          {r.proofStatus.toLowerCase()}
                        </td>
                        <td className="py-1.5">
                          {r.overridden ? <span className="text-amber-800">entered by override</span> : null}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Pagination
                page={rows.data.page}
                pageSize={rows.data.pageSize}
                total={rows.data.total}
                onPage={(page) => setQuery((f) => ({ ...f, page }))}
              />
            </>
          )}
        </div>
        {open ? <VersionRowPanel versionId={versionId} scenarioId={open} onClose={close} /> : null}
      </div>
    </div>
  );
}
