"use client";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import type { QueueFilter, QueueItem, ReviewKind } from "@/lib/review/review.schema";
import { StatusBadge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/states";
import { QueueFilters } from "./queue-filters";
import { claimItem, decideItem, releaseItem } from "./review-api";
import { useQueueKeys } from "./use-queue-keys";

type Claim = { state: "claiming" } | { state: "mine" } | { state: "taken"; heldBy: string };
const keyOf = (i: Pick<QueueItem, "kind" | "id">) => `${i.kind}:${i.id}`;

type Props = {
  items: QueueItem[]; counts: Record<ReviewKind, number>; filter: QueueFilter; canDecide: boolean;
  facets: { domains: string[]; flagReasons: string[]; runs: { id: string; name: string }[] };
};

/**
 * The queue works on local state after the first render: decisions remove the item and update the
 * counts here, and claims/decisions go through route handlers (fetch), so paging with j/k never
 * waits for a page re-render.
 */
export function ReviewQueue({ items: initial, counts: initialCounts, filter, facets, canDecide }: Props) {
  const router = useRouter();
  const [items, setItems] = useState(initial);
  const [counts, setCounts] = useState(initialCounts);
  const [index, setIndex] = useState(0);
  const [claims, setClaims] = useState<Record<string, Claim>>({});
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState("");
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, setPending] = useState(false);
  const reasonRef = useRef<HTMLInputElement>(null);
  const current = items[index];
  const claim = current ? claims[keyOf(current)] : undefined;

  // Selecting an item claims it (reviewers only); moving away releases it for others.
  const currentKind = current?.kind;
  const currentId = current?.id;
  useEffect(() => {
    if (!currentKind || !currentId || !canDecide) return;
    const item = { kind: currentKind, id: currentId };
    setClaims((c) => ({ ...c, [keyOf(item)]: { state: "claiming" } }));
    void claimItem(item).then(
      (r) => setClaims((c) => ({ ...c, [keyOf(item)]: r.claimed ? { state: "mine" } : { state: "taken", heldBy: r.heldBy } })),
      (e: Error) => setClaims((c) => ({ ...c, [keyOf(item)]: { state: "taken", heldBy: e.message } })),
    );
    return () => void releaseItem(item);
  }, [currentKind, currentId, canDecide]);

  const move = (delta: number) => {
    setRejecting(false);
    setIndex((i) => Math.min(Math.max(i + delta, 0), Math.max(items.length - 1, 0)));
  };
  const decide = (decision: "ACCEPT" | "REJECT", why = "") => {
    if (!current || !canDecide) return;
    // The server refuses items another reviewer holds; a claim still in flight need not block.
    if (claim?.state === "taken") return setMessage({ ok: false, text: `Being reviewed by ${claim.heldBy}; press j to skip.` });
    setPending(true);
    decideItem({ kind: current.kind, id: current.id, versionId: current.kind === "environment" ? (current.versionId ?? undefined) : undefined, decision, reason: why })
      .then(() => {
        setMessage({ ok: true, text: `${decision === "ACCEPT" ? "Accepted" : "Rejected"}: ${current.title}` });
        setRejecting(false);
        setReason("");
        setItems((list) => list.filter((i) => keyOf(i) !== keyOf(current)));
        setCounts((c) => ({ ...c, [current.kind]: Math.max(0, c[current.kind] - 1) }));
        setIndex((i) => Math.min(i, Math.max(items.length - 2, 0)));
      })
      .catch((e: Error) => setMessage({ ok: false, text: e.message }))
      .finally(() => setPending(false));
  };
  useQueueKeys({
    next: () => move(1),
    previous: () => move(-1),
    accept: () => decide("ACCEPT"),
    reject: () => {
      if (!canDecide || !current) return;
      setRejecting(true);
      setTimeout(() => reasonRef.current?.focus(), 0);
    },
    edit: () => current && router.push(current.editHref),
  });

  const filters = <QueueFilters filter={filter} counts={counts} facets={facets} />;
  if (!items.length) {
    return (
      <div className="space-y-3">
        {filters}
        <EmptyState title="Nothing waiting for review">Items appear here after quality checks, scenario proofs and rollouts.</EmptyState>
      </div>
    );
  }
  return (
    <div className="space-y-3">
      {filters}
      <p className="text-xs text-slate-500">Keys: <kbd>j</kbd>/<kbd>k</kbd> next/previous · <kbd>a</kbd> accept · <kbd>r</kbd> reject with reason · <kbd>e</kbd> edit</p>
      {message ? <p role={message.ok ? "status" : "alert"} data-testid="queue-message" className={message.ok ? "text-sm text-emerald-700" : "text-sm text-rose-700"}>{message.text}</p> : null}
      {rejecting ? (
        <form className="flex gap-2" onSubmit={(e) => { e.preventDefault(); if (reason.trim()) decide("REJECT", reason.trim()); }}>
          <input ref={reasonRef} value={reason} onChange={(e) => setReason(e.target.value)} aria-label="Rejection reason" placeholder="Why reject? (Enter to confirm, Esc to cancel)"
            onKeyDown={(e) => { if (e.key === "Escape") setRejecting(false); }} className="flex-1 rounded border border-rose-300 px-2 py-1 text-sm" />
          <button type="submit" disabled={pending || !reason.trim()} className="rounded bg-rose-600 px-3 py-1 text-sm text-white disabled:opacity-50">Reject</button>
        </form>
      ) : null}
      <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white" data-testid="queue-list">
        {items.map((item, i) => (
          <li key={keyOf(item)} data-testid="queue-item" aria-current={i === index ? "true" : undefined} onClick={() => setIndex(i)}
            className={`cursor-pointer px-4 py-3 text-sm ${i === index ? "bg-indigo-50 ring-2 ring-inset ring-indigo-400" : "hover:bg-slate-50"}`}>
            <div className="flex flex-wrap items-center gap-2">
              <span className="text-xs uppercase tracking-wide text-slate-500">{item.kind}</span>
              <StatusBadge status={item.status} />
              <Link href={item.href} className="font-medium text-slate-900 hover:underline">{item.title}</Link>
              <span className="text-xs text-slate-500">{item.domain} · {item.detail}</span>
              {i === index && claim ? <ClaimBadge claim={claim} /> : null}
            </div>
            {item.reasons.length ? <ul className="mt-1 list-disc pl-5 text-xs text-amber-800">{item.reasons.map((r) => <li key={r}>{r}</li>)}</ul> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

function ClaimBadge({ claim }: { claim: Claim }) {
  if (claim.state === "claiming") return <span className="text-xs text-slate-400">claiming…</span>;
  if (claim.state === "mine") return <span className="text-xs text-emerald-700" data-testid="claim-state">yours for 10 min</span>;
  return <span className="text-xs text-rose-700" data-testid="claim-state">being reviewed by {claim.heldBy}; press j to skip</span>;
}
