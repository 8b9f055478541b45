"use client";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { QueueFilter, QueueItem, ReviewKind } from "@/lib/review/review.schema";
import { StatusBadge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/states";
import { QueueFilters } from "./queue-filters";
import { QueuePreview } from "./queue-preview";
import { ReasonForm } from "./reason-form";
import { decideItem, undoLastDecision } from "./review-api";
import { type Claim, useItemClaim } from "./use-item-claim";
import { useQueueKeys } from "./use-queue-keys";
import { Button } from "@/components/ui/button";

const keyOf = (i: Pick<QueueItem, "kind" | "id">) => `${i.kind}:${i.id}`;

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
 * counts here, and claims/decisions go through route handlers (fetch), so paging with j/k never
 * waits for a page re-render.
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
  const [pending, setPending] = useState(false);
  // The last decided item and where it was, so an undo puts it back in place.
  const [lastDecided, setLastDecided] = useState<{ item: QueueItem; at: number } | null>(null);
  // Decisions made on this page, so the progress line stays live without a reload.
  const [decidedHere, setDecidedHere] = useState(0);
  const current = items[index];
  const claim = useItemClaim(current, canDecide);

  const move = (delta: number) => {
    setAsking(null);
    setIndex((i) => Math.min(Math.max(i + delta, 0), Math.max(items.length - 1, 0)));
  };
  const decide = (decision: "ACCEPT" | "REJECT", why = "") => {
    if (!current || !canDecide) return;
    // The server refuses items another reviewer holds; a claim still in flight need not block.
    if (claim?.state === "taken")
      return setMessage({ ok: false, text: `Being reviewed by ${claim.heldBy}; press j to skip.` });
    setPending(true);
    decideItem({ ...current.seen, id: current.id, decision, reason: why })
      .then(() => {
        setMessage({
          ok: true,
          text: `${decision === "ACCEPT" ? "Accepted" : "Rejected"}: ${current.title}`,
        });
        setAsking(null);
        setLastDecided({ item: current, at: index });
        setDecidedHere((n) => n + 1);
        setItems((list) => list.filter((i) => keyOf(i) !== keyOf(current)));
        setCounts((c) => ({ ...c, [current.kind]: Math.max(0, c[current.kind] - 1) }));
        setIndex((i) => Math.min(i, Math.max(items.length - 2, 0)));
      })
      .catch((e: Error) => setMessage({ ok: false, text: e.message }))
      .finally(() => setPending(false));
  };
  const undo = () => {
    if (!lastDecided || !canDecide || pending) return;
    setPending(true);
    undoLastDecision()
      .then(() => {
        const { item, at } = lastDecided;
        setItems((list) => [...list.slice(0, at), item, ...list.slice(at)]);
        setCounts((c) => ({ ...c, [item.kind]: c[item.kind] + 1 }));
        setIndex(at);
        setLastDecided(null);
        setDecidedHere((n) => n - 1);
        setMessage({ ok: true, text: `Undone: ${item.title} is back in the queue.` });
      })
      .catch((e: Error) => setMessage({ ok: false, text: e.message }))
      .finally(() => setPending(false));
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

  const waiting = counts.environment + counts.scenario + counts.trajectory;
  const filters = (
    <>
      <p className="text-sm text-slate-500" data-testid="queue-progress">
        {waiting} waiting · you decided {decidedToday.mine + decidedHere} today (
        {decidedToday.all + decidedHere} by everyone)
        {claimedByOthers ? ` · ${claimedByOthers} being reviewed by others` : ""}
      </p>
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
      {canDecide ? (
        <p className="text-xs text-slate-500">
          Keys: <kbd>j</kbd>/<kbd>k</kbd> next/previous · <kbd>a</kbd> accept · <kbd>r</kbd> reject with
          reason · <kbd>e</kbd> edit · <kbd>u</kbd> undo the last decision
        </p>
      ) : null}
      {message ? (
        <p
          role={message.ok ? "status" : "alert"}
          data-testid="queue-message"
          className={message.ok ? "text-sm text-emerald-700" : "text-sm text-rose-700"}
        >
          {message.text}
          {lastDecided && message.ok ? (
            <Button onClick={undo} disabled={pending} variant="secondary" size="xs" className="ml-2">
              Undo
            </Button>
          ) : null}
        </p>
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
        <ul
          className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white"
          data-testid="queue-list"
        >
          {items.map((item, i) => (
            <li
              key={keyOf(item)}
              data-testid="queue-item"
              aria-current={i === index ? "true" : undefined}
              onClick={() => setIndex(i)}
              className={`cursor-pointer px-4 py-3 text-sm ${i === index ? "bg-indigo-50 ring-2 ring-inset ring-indigo-400" : "hover:bg-slate-50"}`}
            >
              <div className="flex flex-wrap items-center gap-2">
                <span className="text-xs uppercase tracking-wide text-slate-500">{item.kind}</span>
                <StatusBadge status={item.status} />
                <Link href={item.href} className="font-medium text-slate-900 hover:underline">
                  {item.title}
                </Link>
                <span className="text-xs text-slate-500">
                  {item.domain} · {item.detail}
                </span>
                {i === index && claim ? <ClaimBadge claim={claim} /> : null}
              </div>
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
            </li>
          ))}
        </ul>
        {current ? <QueuePreview item={current} /> : null}
      </div>
    </div>
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
