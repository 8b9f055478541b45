"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import {
  ENVIRONMENT_STATUSES,
  type EnvironmentListFilters,
  type EnvironmentListPage,
  environmentListSearch,
  type ListEnvironmentsQuery,
} from "@/lib/environments/environment.schema";
import { statusLabel } from "@/components/ui/badge";
import { Checkbox, FilterSelect, SearchInput } from "@/components/ui/inputs";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { queries } from "@/components/data/queries";
import { EnvironmentsTable } from "./environments-table";
import { Pagination } from "@/components/ui/pagination";
import { Button } from "@/components/ui/button";

export function EnvironmentsBrowser(props: {
  initialQuery: ListEnvironmentsQuery;
  initialData: EnvironmentListPage;
  domains: string[];
}) {
  const [search, setSearch] = useState(props.initialQuery.q ?? "");
  const [filters, setFilters] = useState<EnvironmentListFilters>(props.initialQuery);
  // Debounced: typing in the search box sends one request per pause, not per key.
  useEffect(() => {
    const q = search.trim() || undefined;
    if (q === filters.q) return;
    const timer = setTimeout(() => setFilters((f) => ({ ...f, q, page: 1 })), 250);
    return () => clearTimeout(timer);
  }, [search, filters.q]);
  useEffect(() => {
    const qs = environmentListSearch(filters);
    window.history.replaceState(null, "", qs ? `?${qs}` : window.location.pathname);
  }, [filters]);
  const isInitial = environmentListSearch(filters) === environmentListSearch(props.initialQuery);
  const query = useQuery({
    ...queries.environmentList(filters),
    initialData: isInitial ? props.initialData : undefined,
    placeholderData: keepPreviousData,
  });
  const set = (patch: Partial<EnvironmentListFilters>) => setFilters((f) => ({ ...f, page: 1, ...patch }));

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        <SearchInput
          label="Search environments"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder="Search by name…"
          className="w-72"
        />
        <FilterSelect
          aria-label="Filter by status"
          value={filters.status ?? ""}
          onChange={(e) => set({ status: (e.target.value || undefined) as EnvironmentListFilters["status"] })}
          allLabel="All statuses"
          options={ENVIRONMENT_STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))}
        />
        <FilterSelect
          aria-label="Filter by domain"
          value={filters.domain ?? ""}
          onChange={(e) => set({ domain: e.target.value || undefined })}
          allLabel="All domains"
          options={props.domains.map((d) => ({ value: d, label: d }))}
        />
        <Checkbox
          label="Show archived"
          labelClassName="text-sm text-slate-600"
          checked={filters.archived ?? false}
          onChange={(e) => set({ archived: e.target.checked })}
        />
        <span className="text-sm text-slate-500" aria-live="polite" data-testid="result-count">
          {query.isFetching
            ? "Loading…"
            : query.data
              ? `${query.data.total.toLocaleString("en-US")} environments`
              : ""}
        </span>
      </div>
      {query.isError ? (
        <ErrorState
          message={query.error.message}
          action={
            <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
              Retry
            </Button>
          }
        />
      ) : query.data && query.data.items.length === 0 ? (
        <EmptyState title="No environments match">
          Clear the search or the filters to see all environments.
        </EmptyState>
      ) : query.data ? (
        <>
          <EnvironmentsTable items={query.data.items} dimmed={query.isPlaceholderData} />
          <Pagination
            page={query.data.page}
            pageSize={query.data.pageSize}
            total={query.data.total}
            onPage={(page) => setFilters((f) => ({ ...f, page }))}
          />
        </>
      ) : null}
    </div>
  );
}
