import Link from "next/link";
import type { QueueItem } from "@/lib/review/review.schema";
import { StatusBadge } from "@/components/ui/badge";
import type { Claim } from "./use-item-claim";

/** One key per item across kinds: an environment and a scenario may share an id. */
export const queueKeyOf = (i: Pick<QueueItem, "kind" | "id">) => `${i.kind}:${i.id}`;

/** The waiting items; the current one is highlighted and shows whether this reviewer holds its claim. */
export function QueueList({
  items,
  index,
  claim,
  onSelect,
}: {
  items: QueueItem[];
  index: number;
  claim: Claim | null | undefined;
  onSelect: (index: number) => void;
}) {
  return (
    <ul
      className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white"
      data-testid="queue-list"
    >
      {items.map((item, i) => (
        <li
          key={queueKeyOf(item)}
          data-testid="queue-item"
          aria-current={i === index ? "true" : undefined}
          onClick={() => onSelect(i)}
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
          <ItemNotes item={item} />
        </li>
      ))}
    </ul>
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
