"use client";
import { useRouter } from "next/navigation";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { QueueFilter, QueueItem, ReviewKind } from "@/lib/review/review.schema";
import type { BulkReply, BulkSelection } from "@/lib/review/bulk.schema";
import {
  EMPTY_SELECTION,
  type QueueSelection,
  type QueueSort,
  isSelected,
  queueHref,
  rangeBetween,
  selectionSize,
  setSelected,
  sortChange,
  sortQueue,
} from "@/lib/review/queue-table";
import { fetchApi } from "@/lib/api/fetch-api";
import { API } from "@/lib/api/routes";
import { queryKeys } from "@/components/data/query-keys";
import { EmptyState } from "@/components/ui/states";
import { QueueActions } from "./queue-actions";
import { QueueFilters } from "./queue-filters";
import { queueKeyOf as keyOf, QueueList } from "./queue-list";
import { QueuePreview } from "./queue-preview";
import { ReasonForm } from "./reason-form";
import { QueueKeyHelp, QueueMessage, QueueProgress } from "./queue-status";
import { mutations } from "@/components/data/mutations";
import { useItemClaim } from "./use-item-claim";
import { useQueueKeys } from "./use-queue-keys";
import { type BulkOp, BulkBar, BulkResult } from "./bulk-bar";
import { QueueColumnPicker, useQueueColumns } from "./queue-columns";

type Props = {
  items: QueueItem[];
  counts: Record<ReviewKind, number>;
  /** Items matching the whole filter on the server, loaded or not. */
  matching: number;
  /** When the server read the queue: "all matching" skips items edited or added after it. */
  loadedAt: string;
  datasets: { id: string; name: string }[];
  filter: QueueFilter;
  canDecide: boolean;
  decidedToday: { mine: number; all: number };
  claimedByOthers: number;
  facets: { domains: string[]; flagReasons: string[]; runs: { id: string; name: string }[] };
};

/**
 * The queue works on local state after the first render: decisions remove the item and update the
 * counts here, and claims/decisions go through route handlers (components/data/mutations.ts), so paging with j/k
 * never waits for a page re-render. Bulk decisions reload the page's data (they may reach items
 * beyond the loaded rows); new rows from the server replace the local ones.
 */
export function ReviewQueue({
  items: initial,
  counts: initialCounts,
  matching,
  loadedAt,
  datasets,
  filter,
  facets,
  canDecide,
  decidedToday,
  claimedByOthers,
}: Props) {
  const router = useRouter();
  const [items, setItems] = useState(initial);
  const [counts, setCounts] = useState(initialCounts);
  // Decisions made on this page, so the progress line stays live without a reload.
  const [decidedHere, setDecidedHere] = useState(0);
  const [index, setIndex] = useState(0);
  const [columns, setColumns] = useQueueColumns();
  const [selection, setSelection] = useState<QueueSelection>(EMPTY_SELECTION);
  const [anchor, setAnchor] = useState<number | null>(null);
  // The server's rows after a refresh (a bulk decision, a new sort) replace the local ones, and its counts
  // include the decisions made here.
  const [source, setSource] = useState(initial);
  if (source !== initial) {
    setSource(initial);
    setItems(initial);
    setCounts(initialCounts);
    setDecidedHere(0);
    setAnchor(null);
    setIndex(0);
  }
  const [bulkResult, setBulkResult] = useState<{ verb: string; reply: BulkReply } | null>(null);
  const sort: QueueSort = { by: filter.sort ?? "queue", dir: filter.dir ?? "asc" };
  const rows = sortQueue(items, sort);
  // The inline reason prompt: a rejection, or an accept whose risks need a written override.
  const [asking, setAsking] = useState<"reject" | "accept" | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  // The last decided item and where it was, so an undo puts it back in place.
  const [lastDecided, setLastDecided] = useState<{ item: QueueItem; at: number } | null>(null);
  const current = rows[index];
  const claim = useItemClaim(current, canDecide);
  const client = useQueryClient();
  const decision = useMutation(mutations.reviewDecision(client));
  const undoing = useMutation(mutations.reviewUndo(client));
  const bulk = useMutation({
    mutationFn: ({ op, extra }: { op: BulkOp; extra: { reason?: string; datasetId?: string } }) => {
      const sel = bulkSelection();
      if (op === "accept") return fetchApi(API.reviewBulkAccept, { selection: sel });
      if (op === "reject")
        return fetchApi(API.reviewBulkReject, { selection: sel, reason: extra.reason ?? "" });
      if (op === "prove") return fetchApi(API.reviewBulkProve, { selection: sel });
      return fetchApi(API.reviewBulkDataset, { selection: sel, datasetId: extra.datasetId ?? "" });
    },
    onSettled: () => {
      void client.invalidateQueries({ queryKey: queryKeys.review.all });
      void client.invalidateQueries({ queryKey: queryKeys.environments.all });
      void client.invalidateQueries({ queryKey: queryKeys.run.any });
    },
  });
  const pending = decision.isPending || undoing.isPending || bulk.isPending;
  const key = (i: QueueItem) => keyOf(i);
  // The server's count less what this page decided since (the server counts again on a bulk decision).
  const matchingNow = Math.max(0, matching - decidedHere);
  const selectedCount = selection.allMatching
    ? selectionSize(selection, matchingNow)
    : items.filter((i) => isSelected(selection, key(i))).length;
  /** Ticked rows name the versions shown; "all matching" is resolved on the server. */
  function bulkSelection(): BulkSelection {
    if (selection.allMatching) return { mode: "filter", filter, asOf: loadedAt, except: [...selection.keys] };
    return {
      mode: "items",
      items: items.filter((i) => isSelected(selection, key(i))).map((i) => ({ ...i.seen, id: i.id })),
    };
  }
  const runBulk = (op: BulkOp, extra: { reason?: string; datasetId?: string }) => {
    const verb = { accept: "accepted", reject: "rejected", prove: "sent to proof", dataset: "added" }[op];
    setMessage(null);
    bulk
      .mutateAsync({ op, extra })
      .then((reply) => {
        setBulkResult({ verb, reply });
        setSelection(EMPTY_SELECTION);
        setAnchor(null);
        setIndex(0);
        router.refresh();
      })
      .catch((e: Error) => setMessage({ ok: false, text: e.message }));
  };
  const toggleRow = (i: number, shift: boolean) => {
    const row = rows[i];
    if (!row) return;
    const on = !isSelected(selection, key(row));
    const range = shift && anchor !== null ? rangeBetween(rows, anchor, i) : [row];
    setSelection((s) => setSelected(s, range.map(key), on));
    setAnchor(i);
  };
  const allOnPage = rows.length > 0 && rows.every((r) => isSelected(selection, key(r)));
  const titleOf = (kind: string, id: string) =>
    items.find((i) => i.kind === kind && i.id === id)?.title ?? `${kind} ${id}`;
  const runNames = new Map(facets.runs.map((r) => [r.id, r.name]));

  const move = (delta: number) => {
    setAsking(null);
    setIndex((i) => Math.min(Math.max(i + delta, 0), Math.max(rows.length - 1, 0)));
  };
  const decide = (verdict: "ACCEPT" | "REJECT", why = "") => {
    if (!current || !canDecide) return;
    // The server refuses items another reviewer holds; a claim still in flight need not block.
    if (claim?.state === "taken")
      return setMessage({ ok: false, text: `Being reviewed by ${claim.heldBy}; press j to skip.` });
    // mutateAsync, not mutate's callbacks: those run for the latest call only, and a reviewer may
    // decide the next item before the previous answer is back.
    decision
      .mutateAsync({ ...current.seen, id: current.id, decision: verdict, reason: why })
      .then(() => {
        setMessage({
          ok: true,
          text: `${verdict === "ACCEPT" ? "Accepted" : "Rejected"}: ${current.title}`,
        });
        setAsking(null);
        setLastDecided({ item: current, at: items.findIndex((i) => keyOf(i) === keyOf(current)) });
        setDecidedHere((n) => n + 1);
        setItems((list) => list.filter((i) => keyOf(i) !== keyOf(current)));
        setCounts((c) => ({ ...c, [current.kind]: Math.max(0, c[current.kind] - 1) }));
        setIndex((i) => Math.min(i, Math.max(items.length - 2, 0)));
      })
      .catch((e: Error) => setMessage({ ok: false, text: e.message }));
  };
  const undo = () => {
    if (!canDecide || pending) return;
    if (!lastDecided)
      return setMessage({
        ok: false,
        text: "Nothing to undo: no decision made on this page is left to undo.",
      });
    undoing
      .mutateAsync()
      .then(() => {
        const { item, at } = lastDecided;
        const restored = [...items.slice(0, at), item, ...items.slice(at)];
        setItems(restored);
        setCounts((c) => ({ ...c, [item.kind]: c[item.kind] + 1 }));
        setIndex(
          Math.max(
            0,
            sortQueue(restored, sort).findIndex((i) => keyOf(i) === keyOf(item)),
          ),
        );
        setLastDecided(null);
        setDecidedHere((n) => n - 1);
        setMessage({ ok: true, text: `Undone: ${item.title} is back in the queue.` });
      })
      .catch((e: Error) => setMessage({ ok: false, text: e.message }));
  };
  // The keys and the decision bar's buttons call these same functions.
  const accept = () => {
    if (!canDecide || !current) return;
    if (current.risks.length) setAsking("accept");
    else decide("ACCEPT");
  };
  const reject = () => canDecide && current && setAsking("reject");
  useQueueKeys({
    next: () => move(1),
    previous: () => move(-1),
    accept,
    reject,
    edit: () => current && router.push(current.editHref),
    undo,
    select: () => canDecide && current && toggleRow(index, false),
  });

  const filters = (
    <>
      <QueueProgress
        counts={counts}
        decidedToday={decidedToday}
        decidedHere={decidedHere}
        claimedByOthers={claimedByOthers}
      />
      <QueueFilters filter={filter} counts={counts} facets={facets} />
      {bulkResult ? <BulkResult verb={bulkResult.verb} reply={bulkResult.reply} titleOf={titleOf} /> : null}
    </>
  );
  if (!items.length) {
    return (
      <div className="space-y-3">
        {filters}
        {message ? (
          <QueueMessage message={message} canUndo={lastDecided !== null} pending={pending} onUndo={undo} />
        ) : null}
        <EmptyState title="Nothing waiting for review">
          Items appear here after quality checks, scenario proofs and rollouts.
        </EmptyState>
      </div>
    );
  }
  return (
    <div className="space-y-3">
      {filters}
      {canDecide ? <QueueKeyHelp /> : null}
      {canDecide ? (
        <BulkBar
          size={selectedCount}
          allMatching={selection.allMatching}
          matching={matchingNow}
          loaded={items.length}
          datasets={datasets}
          pending={pending}
          onSelectAllMatching={() => setSelection({ allMatching: true, keys: new Set() })}
          onClear={() => setSelection(EMPTY_SELECTION)}
          onRun={runBulk}
        />
      ) : null}
      {canDecide && current ? (
        <QueueActions
          item={current}
          pending={pending}
          canUndo={lastDecided !== null}
          onAccept={accept}
          onReject={reject}
          onUndo={undo}
        />
      ) : null}
      {message ? <QueueMessage message={message} canUndo={false} pending={pending} onUndo={undo} /> : null}
      {asking && current ? (
        <ReasonForm
          key={`${asking}:${keyOf(current)}`}
          mode={asking}
          risks={current.risks}
          pending={pending}
          onCancel={() => setAsking(null)}
          onSubmit={(why) => decide(asking === "reject" ? "REJECT" : "ACCEPT", why)}
        />
      ) : null}
      <div className="flex justify-end">
        <QueueColumnPicker columns={columns} onChange={setColumns} />
      </div>
      <div className="grid items-start gap-3 lg:grid-cols-2">
        <QueueList
          items={rows}
          index={index}
          claim={claim}
          onSelect={setIndex}
          columns={columns}
          sort={sort}
          onSort={(by) => router.push(queueHref(filter, sortChange(sort, by)))}
          runName={(id) => (id ? (runNames.get(id) ?? "") : "")}
          selection={
            canDecide
              ? {
                  isSelected: (i) => isSelected(selection, key(i)),
                  onToggle: toggleRow,
                  allOnPage,
                  onTogglePage: () => setSelection((s) => setSelected(s, rows.map(key), !allOnPage)),
                }
              : null
          }
        />
        {current ? <QueuePreview item={current} /> : null}
      </div>
    </div>
  );
}
