"use client";
import { useRouter } from "next/navigation";
import type { QueueFilter, ReviewKind } from "@/lib/review/review.schema";
import { queueHref } from "@/lib/review/queue-table";
import { ToggleButton } from "@/components/ui/toggle-button";
import { Field } from "@/components/ui/field";
import { FilterSelect, SearchInput } from "@/components/ui/inputs";

type Props = {
  filter: QueueFilter;
  counts: Record<ReviewKind, number>;
  facets: { domains: string[]; flagReasons: string[]; runs: { id: string; name: string }[] };
};

const KIND_LABEL: Record<ReviewKind, string> = {
  environment: "Environments",
  scenario: "Scenarios",
  trajectory: "Trajectories",
  repair: "Repairs",
};
const STATUSES = ["IN_REVIEW", "DRAFT", "FLAGGED"];

/** Filters live in the URL, so a filtered queue can be shared and survives a reload. */
export function QueueFilters({ filter, counts, facets }: Props) {
  const router = useRouter();
  const set = (key: keyof QueueFilter, value: string) => router.push(queueHref(filter, { [key]: value }));
  const select = (key: keyof QueueFilter, label: string, options: { value: string; label: string }[]) => (
    <Field label={label} className="flex items-center gap-1 text-sm" labelClassName="text-slate-500">
      {(control) => (
        <FilterSelect
          {...control}
          aria-label={`Filter by ${label.toLowerCase()}`}
          value={filter[key] ?? ""}
          onChange={(e) => set(key, e.target.value)}
          options={options}
        />
      )}
    </Field>
  );
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap gap-2" role="tablist" aria-label="Item kinds">
        {(Object.keys(KIND_LABEL) as ReviewKind[]).map((k) => (
          <ToggleButton
            key={k}
            shape="pill"
            selected={filter.kind === k}
            role="tab"
            aria-selected={filter.kind === k}
            onClick={() => set("kind", filter.kind === k ? "" : k)}
          >
            {KIND_LABEL[k]}{" "}
            <span data-testid={`count-${k}`} className="tabular-nums">
              {counts[k]}
            </span>
          </ToggleButton>
        ))}
      </div>
      <div className="flex flex-wrap gap-4">
        <form
          role="search"
          className="flex items-center gap-1 text-sm"
          onSubmit={(e) => {
            e.preventDefault();
            const q = new FormData(e.currentTarget).get("q");
            set("q", typeof q === "string" ? q.trim() : "");
          }}
        >
          <SearchInput
            label="Search the queue"
            defaultValue={filter.q ?? ""}
            placeholder="Search names, tasks, ids… (Enter)"
            className="w-64"
          />
        </form>
        {select(
          "status",
          "Status",
          STATUSES.map((s) => ({ value: s, label: s.toLowerCase().replace("_", " ") })),
        )}
        {select(
          "domain",
          "Domain",
          facets.domains.map((d) => ({ value: d, label: d })),
        )}
        {select(
          "flagReason",
          "Flag reason",
          facets.flagReasons.map((f) => ({ value: f, label: f })),
        )}
        {select(
          "runId",
          "Run",
          facets.runs.map((r) => ({ value: r.id, label: r.name })),
        )}
      </div>
    </div>
  );
}
