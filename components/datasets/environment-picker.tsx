"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useDeferredValue, useState } from "react";
import { queries } from "@/components/data/queries";
import { Button } from "@/components/ui/button";
import { Checkbox, SearchInput } from "@/components/ui/inputs";
import { Pagination } from "@/components/ui/pagination";
import { ErrorState } from "@/components/ui/states";
import type {
  EligibleEnvironment,
  EligibleEnvironmentsPage,
} from "@/lib/datasets/eligible-environments.schema";

export type { EligibleEnvironment } from "@/lib/datasets/eligible-environments.schema";

/**
 * Checkboxes of the environments a dataset can be made from; none ticked means "all accepted
 * environments". A project can hold tens of thousands, so the picker shows one page, searched on
 * the server; the ticked ones stay listed above it whatever page or search is shown.
 */
export function EnvironmentPicker({
  initial,
  selected,
  onChange,
}: {
  /** The first page without a search, rendered with the page. */
  initial: EligibleEnvironmentsPage;
  selected: string[];
  onChange: (ids: string[]) => void;
}) {
  const [q, setQ] = useState("");
  const [page, setPage] = useState(1);
  const query = { q: useDeferredValue(q).trim(), page };
  const first = query.q === "" && page === 1;
  const result = useQuery({
    ...queries.eligibleEnvironments(query),
    initialData: first ? initial : undefined,
    placeholderData: keepPreviousData,
  });
  // Ticked environments keep their labels when another page or search is shown.
  const [ticked, setTicked] = useState<Map<string, EligibleEnvironment>>(new Map());

  if (initial.total === 0)
    return (
      <p className="text-sm text-amber-700">
        No accepted environments yet: accept some on the Environments page first.
      </p>
    );
  const tick = (env: EligibleEnvironment) => {
    setTicked(new Map(ticked).set(env.id, env));
    onChange([...selected, env.id]);
  };
  const untick = (id: string) => {
    const next = new Map(ticked);
    next.delete(id);
    setTicked(next);
    onChange(selected.filter((s) => s !== id));
  };
  const shown = result.data;
  return (
    <fieldset className="space-y-2 text-sm">
      <legend className="font-medium text-slate-700">
        Environments <span className="font-normal text-slate-500">(none ticked = all accepted)</span>
      </legend>
      {selected.length ? (
        <div className="flex flex-wrap items-center gap-2" data-testid="picked-environments">
          <span className="text-slate-600">{selected.length} ticked:</span>
          {selected.map((id) => {
            const env = ticked.get(id) ?? shown?.items.find((e) => e.id === id);
            return (
              <Button
                key={id}
                variant="secondary"
                size="sm"
                aria-label={`Untick ${env?.slug ?? id}`}
                onClick={() => untick(id)}
              >
                {env?.slug ?? id} ×
              </Button>
            );
          })}
        </div>
      ) : null}
      {initial.total > initial.pageSize ? (
        <SearchInput
          label="Search environments to pick"
          name="environment-search"
          placeholder="Search by name or env_id"
          controlSize="sm"
          value={q}
          // The form previews on its own fields' changes; a search is not one of them.
          onChange={(e) => {
            e.stopPropagation();
            setQ(e.target.value);
            setPage(1);
          }}
          onKeyDown={(e) => {
            if (e.key === "Enter") e.preventDefault(); // Enter searches; it must not create the dataset
          }}
        />
      ) : null}
      {result.error ? (
        <ErrorState title="Could not load the environments" message={result.error.message} />
      ) : null}
      {shown && shown.items.length === 0 ? (
        <p className="text-slate-500">No environment matches “{query.q}”.</p>
      ) : null}
      <div
        className="grid max-h-48 grid-cols-1 gap-1 overflow-auto sm:grid-cols-2"
        aria-busy={result.isFetching}
      >
        {(shown?.items ?? []).map((e) => (
          <Checkbox
            key={e.id}
            checked={selected.includes(e.id)}
            onChange={(ev) => (ev.target.checked ? tick(e) : untick(e.id))}
            label={
              <>
                <span>{e.name}</span>
                <span className="text-xs text-slate-500">
                  {e.slug} · {e.acceptedScenarios} accepted scenarios
                </span>
              </>
            }
          />
        ))}
      </div>
      {shown && shown.total > shown.pageSize ? (
        <Pagination
          label="Environment pages"
          page={shown.page}
          pageSize={shown.pageSize}
          total={shown.total}
          onPage={setPage}
        />
      ) : null}
    </fieldset>
  );
}
