"use client";
import { useRouter } from "next/navigation";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { QueueFilter, QueueItem, ReviewKind } from "@/lib/review/review.schema";
import { EmptyState } from "@/components/ui/states";
import { QueueFilters } from "./queue-filters";
import { queueKeyOf as keyOf, QueueList } from "./queue-list";
import { QueuePreview } from "./queue-preview";
import { ReasonForm } from "./reason-form";
import { QueueKeyHelp, QueueMessage, QueueProgress } from "./queue-status";
import { mutations } from "@/components/data/mutations";
import { useItemClaim } from "./use-item-claim";
import { useQueueKeys } from "./use-queue-keys";

type Props = {
  items: QueueItem[];
  counts: Record<ReviewKind, number>;
  filter: QueueFilter;
  canDecide: boolean;
  decidedToday: { mine: number; all: number };
  claimedByOthers: number;
  facets: { domains: string[]; flagReasons: string[]; runs: { id: string; name: string }[] };
};

/**
 * The queue works on local state after the first render: decisions remove the item and update the
 * counts here, and claims/decisions go through route handlers (components/data/mutations.ts), so paging with j/k
 * never waits for a page re-render.
 */
export function ReviewQueue({
  items: initial,
  counts: initialCounts,
  filter,
  facets,
  canDecide,
  decidedToday,
  claimedByOthers,
}: Props) {
  const router = useRouter();
  const [items, setItems] = useState(initial);
  const [counts, setCounts] = useState(initialCounts);
  const [index, setIndex] = useState(0);
  // The inline reason prompt: a rejection, or an accept whose risks need a written override.
  const [asking, setAsking] = useState<"reject" | "accept" | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  // The last decided item and where it was, so an undo puts it back in place.
  const [lastDecided, setLastDecided] = useState<{ item: QueueItem; at: number } | null>(null);
  // Decisions made on this page, so the progress line stays live without a reload.
  const [decidedHere, setDecidedHere] = useState(0);
  const current = items[index];
  const claim = useItemClaim(current, canDecide);
  const client = useQueryClient();
  const decision = useMutation(mutations.reviewDecision(client));
  const undoing = useMutation(mutations.reviewUndo(client));
  const pending = decision.isPending || undoing.isPending;

  const move = (delta: number) => {
    setAsking(null);
    setIndex((i) => Math.min(Math.max(i + delta, 0), Math.max(items.length - 1, 0)));
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
        setLastDecided({ item: current, at: index });
        setDecidedHere((n) => n + 1);
        setItems((list) => list.filter((i) => keyOf(i) !== keyOf(current)));
        setCounts((c) => ({ ...c, [current.kind]: Math.max(0, c[current.kind] - 1) }));
        setIndex((i) => Math.min(i, Math.max(items.length - 2, 0)));
      })
      .catch((e: Error) => setMessage({ ok: false, text: e.message }));
  };
  const undo = () => {
    if (!lastDecided || !canDecide || pending) return;
    undoing
      .mutateAsync()
      .then(() => {
        const { item, at } = lastDecided;
        setItems((list) => [...list.slice(0, at), item, ...list.slice(at)]);
        setCounts((c) => ({ ...c, [item.kind]: c[item.kind] + 1 }));
        setIndex(at);
        setLastDecided(null);
        setDecidedHere((n) => n - 1);
        setMessage({ ok: true, text: `Undone: ${item.title} is back in the queue.` });
      })
      .catch((e: Error) => setMessage({ ok: false, text: e.message }));
  };
  useQueueKeys({
    next: () => move(1),
    previous: () => move(-1),
    accept: () => {
      if (!canDecide || !current) return;
      if (current.risks.length) setAsking("accept");
      else decide("ACCEPT");
    },
    reject: () => canDecide && current && setAsking("reject"),
    edit: () => current && router.push(current.editHref),
    undo,
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
    </>
  );
  if (!items.length) {
    return (
      <div className="space-y-3">
        {filters}
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
      {message ? (
        <QueueMessage message={message} canUndo={lastDecided !== null} pending={pending} onUndo={undo} />
      ) : null}
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
      <div className="grid items-start gap-3 lg:grid-cols-2">
        <QueueList items={items} index={index} claim={claim} onSelect={setIndex} />
        {current ? <QueuePreview item={current} /> : null}
      </div>
    </div>
  );
}
