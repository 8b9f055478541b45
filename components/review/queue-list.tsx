import Link from "next/link";
import { Fragment } from "react";
import type { QueueItem } from "@/lib/review/review.schema";
import {
  COLUMN_LABEL,
  QUEUE_COLUMNS,
  type QueueColumn,
  type QueueSort,
  type SortKey,
} from "@/lib/review/queue-table";
import { StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/inputs";
import type { Claim } from "./use-item-claim";

/** One key per item across kinds: an environment and a scenario may share an id. */
export const queueKeyOf = (i: Pick<QueueItem, "kind" | "id">) => `${i.kind}:${i.id}`;

type Props = {
  items: QueueItem[];
  index: number;
  claim: Claim | null | undefined;
  onSelect: (index: number) => void;
  columns: QueueColumn[];
  sort: QueueSort;
  onSort: (by: SortKey) => void;
  runName: (runId: string | null) => string;
  /** Null for a viewer: no selection column. */
  selection: {
    isSelected: (item: QueueItem) => boolean;
    onToggle: (index: number, shift: boolean) => void;
    allOnPage: boolean;
    onTogglePage: () => void;
  } | null;
};

const SORT_OF: Partial<Record<QueueColumn, SortKey>> = { kind: "kind", status: "status", domain: "domain" };

/**
 * The waiting items as a table: a checkbox per row (shift-click ticks a range), sortable headers,
 * the columns the reviewer chose. The current row is highlighted and shows whether this reviewer
 * holds its claim; clicking a row makes it current.
 */
export function QueueList({
  items,
  index,
  claim,
  onSelect,
  columns,
  sort,
  onSort,
  runName,
  selection,
}: Props) {
  const shown = new Set(columns);
  const header = (label: string, by: SortKey | undefined, className = "") => (
    <th
      scope="col"
      className={`px-3 py-2 text-left font-medium ${className}`}
      aria-sort={by && sort.by === by ? (sort.dir === "asc" ? "ascending" : "descending") : undefined}
    >
      {by ? (
        <Button variant="ghost" size="xs" onClick={() => onSort(by)} title={`Sort by ${label.toLowerCase()}`}>
          {label}
          {sort.by === by ? (sort.dir === "asc" ? " ▲" : " ▼") : ""}
        </Button>
      ) : (
        label
      )}
    </th>
  );
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table className="w-full text-sm" data-testid="queue-list">
        <thead className="border-b border-slate-200 text-xs text-slate-500">
          <tr>
            {selection ? (
              <th scope="col" className="w-8 px-3 py-2">
                <Checkbox
                  label={<span className="sr-only">Select every loaded row</span>}
                  checked={selection.allOnPage}
                  onChange={selection.onTogglePage}
                />
              </th>
            ) : null}
            {header("Item", "title")}
            {QUEUE_COLUMNS.filter((c) => shown.has(c)).map((c) => (
              <Fragment key={c}>{header(COLUMN_LABEL[c], SORT_OF[c])}</Fragment>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {items.map((item, i) => (
            <tr
              key={queueKeyOf(item)}
              data-testid="queue-item"
              data-key={queueKeyOf(item)}
              aria-current={i === index ? "true" : undefined}
              onClick={() => onSelect(i)}
              className={`cursor-pointer align-top ${i === index ? "bg-indigo-50 ring-2 ring-inset ring-indigo-400" : "hover:bg-slate-50"}`}
            >
              {selection ? (
                <td className="px-3 py-3" onClick={(e) => e.stopPropagation()}>
                  <Checkbox
                    label={<span className="sr-only">Select {item.title}</span>}
                    checked={selection.isSelected(item)}
                    onChange={() => undefined}
                    onClick={(e) => selection.onToggle(i, e.shiftKey)}
                    data-testid="queue-select"
                  />
                </td>
              ) : null}
              <td className="px-3 py-3">
                <Link href={item.href} className="font-medium text-slate-900 hover:underline">
                  {item.title}
                </Link>
                {i === index && claim ? (
                  <span className="ml-2">
                    <ClaimBadge claim={claim} />
                  </span>
                ) : null}
                <ItemNotes item={item} />
              </td>
              {shown.has("kind") ? (
                <td
                  className="px-3 py-3 text-xs uppercase tracking-wide text-slate-500"
                  data-testid="cell-kind"
                >
                  {item.kind}
                </td>
              ) : null}
              {shown.has("status") ? (
                <td className="px-3 py-3" data-testid="cell-status">
                  <StatusBadge status={item.status} />
                </td>
              ) : null}
              {shown.has("domain") ? (
                <td className="px-3 py-3 text-xs text-slate-600" data-testid="cell-domain">
                  {item.domain}
                </td>
              ) : null}
              {shown.has("detail") ? (
                <td className="px-3 py-3 text-xs text-slate-500" data-testid="cell-detail">
                  {item.detail}
                </td>
              ) : null}
              {shown.has("run") ? (
                <td className="px-3 py-3 text-xs text-slate-500" data-testid="cell-run">
                  {runName(item.runId)}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Why the item is here: what changed since it was accepted, risks needing an override, check reasons. */
function ItemNotes({ item }: { item: QueueItem }) {
  return (
    <>
      {item.changed ? (
        <p className="mt-1 text-xs text-indigo-800" data-testid="changed-since-accepted">
          {item.changed.text} ·{" "}
          <Link href={item.changed.href} className="underline">
            diff
          </Link>
        </p>
      ) : null}
      {item.risks.length ? (
        <p className="mt-1 text-xs text-rose-700" data-testid="item-risks">
          Needs an override reason to accept: {item.risks.join("; ")}
        </p>
      ) : null}
      {item.reasons.length ? (
        <ul className="mt-1 list-disc pl-5 text-xs text-amber-800">
          {item.reasons.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

function ClaimBadge({ claim }: { claim: Claim }) {
  if (claim.state === "claiming") return <span className="text-xs text-slate-400">claiming…</span>;
  if (claim.state === "mine")
    return (
      <span className="text-xs text-emerald-700" data-testid="claim-state">
        yours while this page is open
      </span>
    );
  return (
    <span className="text-xs text-rose-700" data-testid="claim-state">
      being reviewed by {claim.heldBy}; press j to skip
    </span>
  );
}
