import Link from "next/link";
import type { QueueItem } from "@/lib/review/review.schema";
import { Button, buttonClassName } from "@/components/ui/button";
import { Toolbar } from "@/components/ui/toolbar";

/** A key shown on the button that does the same, so the mouse teaches the keyboard. */
const Key = ({ k }: { k: string }) => (
  <kbd className="ml-1.5 rounded border border-current/30 px-1 font-mono text-[0.7rem] opacity-80">{k}</kbd>
);

/**
 * The decision bar of the queue: the same actions as the a / r / e / u keys, for the mouse. Each
 * button calls the handler its key calls (review-queue.tsx), so both paths send one request.
 */
export function QueueActions({
  item,
  pending,
  canUndo,
  onAccept,
  onReject,
  onUndo,
}: {
  item: QueueItem;
  pending: boolean;
  canUndo: boolean;
  onAccept: () => void;
  onReject: () => void;
  onUndo: () => void;
}) {
  return (
    <Toolbar
      label="Decide the selected item"
      className="flex flex-wrap items-center gap-2"
      data-testid="queue-actions"
    >
      <span className="mr-auto min-w-0 truncate text-sm text-slate-700">
        <span className="text-xs uppercase tracking-wide text-slate-500">{item.kind}</span>{" "}
        <span className="font-medium">{item.title}</span>
      </span>
      <Button
        variant={item.risks.length ? "warning" : "success"}
        disabled={pending}
        disabledReason="Waiting for the last decision"
        title={item.risks.length ? "Accepting needs an override reason" : "Accept this version"}
        onClick={onAccept}
      >
        {item.risks.length ? "Accept…" : "Accept"}
        <Key k="a" />
      </Button>
      <Button
        variant="danger"
        disabled={pending}
        disabledReason="Waiting for the last decision"
        onClick={onReject}
      >
        Reject…
        <Key k="r" />
      </Button>
      <Link href={item.editHref} className={buttonClassName({ variant: "secondary" })}>
        Edit
        <Key k="e" />
      </Link>
      <Button
        variant="secondary"
        disabled={pending || !canUndo}
        disabledReason={pending ? "Waiting for the last decision" : "No decision made on this page to undo"}
        onClick={onUndo}
      >
        Undo
        <Key k="u" />
      </Button>
    </Toolbar>
  );
}
